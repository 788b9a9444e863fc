#!/usr/bin/python3
"""An ordinary log workflow through Debian's python3-elasticsearch 7.17 against an OpenSearch 2.x
endpoint (the sandbox's emulation, or a real cluster), over verified TLS with basic auth.

Environment: OPENSEARCH_URL, OPENSEARCH_USER, OPENSEARCH_PASSWORD, OPENSEARCH_CA (PEM file).
Prints one JSON line: {"client": ..., "tried": N, "passed": N, "failed": ["name: reason", ...]}.

Each step checks the answer against what OpenSearch 2.x returns; the comment beside it names the
YAML REST story of opensearch-api-specification (tests/default/...) or the client source it follows.

The product check: elasticsearch-py >= 7.14 (transport.py, _ProductChecker.check_product) sends
GET / before the first request and refuses a server whose version.number is below 6.0, or 7.0-7.13
without the tagline "You Know, for Search", or 7.14+ without the header X-Elastic-Product:
Elasticsearch. OpenSearch 2.x answers version.number "2.x.y" (and, with
compatibility.override_main_response_version, "7.10.2" with the OpenSearch tagline), so the client
refuses it with UnsupportedProductError either way; the first step checks exactly that. The rest of
the workflow marks the transport verified (transport._verified_elasticsearch = True), the way
people who keep this client against OpenSearch do it, and runs the client's ordinary API and helpers.
"""

import gzip
import json
import os
import sys
import traceback
import warnings

import elasticsearch
import logging
from elasticsearch import Elasticsearch, helpers
from elasticsearch.exceptions import (
    AuthenticationException,
    ConflictError,
    NotFoundError,
    RequestError,
    UnsupportedProductError,
)

URL = os.environ["OPENSEARCH_URL"]
USER = os.environ["OPENSEARCH_USER"]
PASSWORD = os.environ["OPENSEARCH_PASSWORD"]
CA = os.environ["OPENSEARCH_CA"]

INDEX = "logs-2024.03.15"
N_DOCS = 1000
IPS = ["203.0.113.61", "203.0.113.7", "198.51.100.23", "192.0.2.10"]
PATHS = ["/index.html", "/favicon.ico", "/api/v1/orders", "/login", "/static/app.js"]

tried = 0
passed = 0
failed = []
known_gaps = []


def step(name, gap=None):
    """Runs the decorated function at once as one step; it raises (or returns a reason) on a miss.

    gap names a known gap of the emulation: the step's miss is listed under known_gaps instead of
    failed, and a pass is a failure that asks for the mark to go."""

    def run(fn):
        global tried, passed
        tried += 1
        try:
            reason = fn()
        except Exception as e:  # noqa: BLE001 - any exception is the step's failure
            reason = "%s: %s" % (type(e).__name__, e)
            if os.environ.get("CLIENTS_VERBOSE"):
                traceback.print_exc(file=sys.stderr)
        if reason and gap:
            known_gaps.append("%s: %s (%s)" % (name, str(reason)[:200], gap))
        elif reason:
            failed.append("%s: %s" % (name, str(reason)[:300]))
        else:
            passed += 1
            if gap:
                failed.append("%s: passes now; drop its known-gap mark" % name)
        return fn

    return run


def want(cond, fmt, *a):
    if not cond:
        raise AssertionError(fmt % a if a else fmt)


def client(password=PASSWORD, compress=True, verified=True):
    es = Elasticsearch(
        [URL],
        http_auth=(USER, password),
        use_ssl=True,
        verify_certs=True,
        ca_certs=CA,
        http_compress=compress,
        max_retries=0,
        timeout=30,
    )
    if verified:
        # The field workaround for the product check (see the module's docstring).
        es.transport._verified_elasticsearch = True
    return es


def log_line(i):
    ip = IPS[i % len(IPS)]
    path = PATHS[i % len(PATHS)]
    status = [200, 200, 200, 404, 500][i % 5]
    return {
        "@timestamp": "2024-03-15T%02d:%02d:00Z" % (i // 60 % 24, i % 60),
        "client_ip": ip,
        "status": status,
        "bytes": 100 + i % 900,
        "path": path,
        "message": "%s - GET %s HTTP/1.1 %d" % (ip, path, status),
    }


if os.environ.get("CLIENTS_VERBOSE"):
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
es = client()


# The client's own product check (transport.py _ProductChecker) against the server's GET /.
@step("product check refuses OpenSearch 2.x (UnsupportedProductError, as against real OpenSearch)")
def _():
    raw = client(verified=False)
    try:
        raw.info()
    except UnsupportedProductError:
        return None
    return "the client accepted the server as Elasticsearch"


# _core/info.yaml: version.distribution opensearch, number 2.x, the OpenSearch tagline.
@step("info")
def _():
    r = es.info()
    v = r["version"]
    want(v.get("distribution") == "opensearch" and v["number"].startswith("2."), "info: %s", r)
    want(r["tagline"] == "The OpenSearch Project: https://opensearch.org/", "tagline: %s", r["tagline"])


@step("ping")
def _():
    want(es.ping() is True, "ping returned False")


# cluster/health.yaml
@step("cluster health")
def _():
    r = es.cluster.health()
    want(r["status"] in ("green", "yellow") and r["number_of_nodes"] >= 1, "health: %s", r)


# indices/index_template.yaml: a composable template applies to a later index.
@step("put index template (composable)")
def _():
    r = es.indices.put_index_template(
        name="logs",
        body={
            "index_patterns": ["logs-*"],
            "template": {
                "settings": {"number_of_shards": 1, "number_of_replicas": 0},
                "mappings": {"properties": {"client_ip": {"type": "ip"}}},
            },
        },
    )
    want(r == {"acknowledged": True}, "answer: %s", r)


# indices/create.yaml
@step("create index with mappings and settings")
def _():
    r = es.indices.create(
        index=INDEX,
        body={
            "settings": {"index": {"number_of_shards": 1}},
            "mappings": {
                "properties": {
                    "@timestamp": {"type": "date"},
                    "status": {"type": "integer"},
                    "bytes": {"type": "long"},
                    "path": {"type": "keyword"},
                    "message": {"type": "text"},
                }
            },
        },
    )
    want(r["acknowledged"] and r["shards_acknowledged"] and r["index"] == INDEX, "create: %s", r)


# indices/create.yaml: creating it again is resource_already_exists_exception, 400.
@step("create existing index is RequestError resource_already_exists_exception")
def _():
    try:
        es.indices.create(index=INDEX)
    except RequestError as e:
        want(e.status_code == 400 and e.error == "resource_already_exists_exception", "error: %r", e)
        return None
    return "no error"


# indices/mapping/mapping.yaml: the template's field and the request's fields are merged.
@step("mapping from template and request")
def _():
    m = es.indices.get_mapping(index=INDEX)[INDEX]["mappings"]["properties"]
    want(m["client_ip"] == {"type": "ip"} and m["status"] == {"type": "integer"}, "mapping: %s", m)


# indices/settings.yaml: bulk tuning turns refresh off.
@step("put settings refresh_interval -1")
def _():
    r = es.indices.put_settings(index=INDEX, body={"index": {"refresh_interval": "-1"}})
    want(r == {"acknowledged": True}, "answer: %s", r)
    s = es.indices.get_settings(index=INDEX)[INDEX]["settings"]["index"]
    want(s.get("refresh_interval") == "-1", "settings: %s", s)


# _core/bulk.yaml, through helpers.bulk (helpers/actions.py streaming_bulk: _bulk, items checked).
@step("helpers.bulk")
def _():
    ok, errors = helpers.bulk(
        es, ({"_index": INDEX, "_id": str(i), "_source": log_line(i)} for i in range(N_DOCS)), chunk_size=300
    )
    want(ok == N_DOCS and errors == [], "bulk: %s %s", ok, errors)


# _core/bulk.yaml: a raw bulk body with index, create, update and delete actions.
@step("bulk (raw body)")
def _():
    body = [
        {"index": {"_index": "scratch", "_id": "a"}}, {"n": 1},
        {"create": {"_index": "scratch", "_id": "b"}}, {"n": 2},
        {"update": {"_index": "scratch", "_id": "a"}}, {"doc": {"n": 3}},
        {"delete": {"_index": "scratch", "_id": "b"}},
        {"create": {"_index": "scratch", "_id": "a"}}, {"n": 4},
    ]
    r = es.bulk(body=body, refresh="true")
    kinds = [list(it.keys())[0] for it in r["items"]]
    results = [list(it.values())[0].get("result") for it in r["items"]]
    last = r["items"][4]["create"]
    want(r["errors"] is True and kinds == ["index", "create", "update", "delete", "create"], "items: %s", r["items"])
    want(results[:4] == ["created", "created", "updated", "deleted"], "results: %s", results)
    want(last["status"] == 409 and last["error"]["type"] == "version_conflict_engine_exception", "conflict: %s", last)


# indices/settings.yaml: and back on; the setting is gone from the index (null resets it).
@step("put settings refresh_interval back")
def _():
    r = es.indices.put_settings(index=INDEX, body={"index": {"refresh_interval": None}})
    want(r == {"acknowledged": True}, "answer: %s", r)
    s = es.indices.get_settings(index=INDEX)[INDEX]["settings"]["index"]
    want("refresh_interval" not in s, "settings: %s", s)


# _core/refresh.yaml
@step("refresh")
def _():
    r = es.indices.refresh(index=INDEX)
    want(r["_shards"]["failed"] == 0, "refresh: %s", r)


# _core/count.yaml
@step("count")
def _():
    r = es.count(index=INDEX)
    want(r["count"] == N_DOCS, "count: %s", r)


# indices/doc.yaml, indices/index.yaml
@step("index a document")
def _():
    r = es.index(index=INDEX, id="extra", body=log_line(3), refresh="wait_for")
    want(r["result"] == "created" and r["_version"] == 1 and r["_id"] == "extra", "index: %s", r)


@step("get a document")
def _():
    r = es.get(index=INDEX, id="extra")
    want(r["found"] and r["_source"]["client_ip"] == "192.0.2.10" and r["_seq_no"] >= 0, "get: %s", r)


@step("document exists")
def _():
    want(es.exists(index=INDEX, id="extra") is True and es.exists(index=INDEX, id="nope") is False, "exists")


# indices/update.yaml
@step("update with a partial doc")
def _():
    r = es.update(index=INDEX, id="extra", body={"doc": {"bytes": 1000}})
    want(r["result"] == "updated" and r["_version"] == 2, "update: %s", r)


@step("update with a painless script")
def _():
    r = es.update(
        index=INDEX,
        id="extra",
        body={"script": {"source": "ctx._source.bytes += params.n", "lang": "painless", "params": {"n": 107}}},
        refresh="true",
    )
    g = es.get(index=INDEX, id="extra")
    want(r["result"] == "updated" and g["_source"]["bytes"] == 1107, "scripted update: %s %s", r, g)


@step("version conflict is ConflictError version_conflict_engine_exception")
def _():
    try:
        es.index(index=INDEX, id="extra", body={"x": 1}, if_seq_no=0, if_primary_term=1)
    except ConflictError as e:
        want(e.status_code == 409 and e.error == "version_conflict_engine_exception", "error: %r", e)
        return None
    return "no error"


@step("delete a document")
def _():
    r = es.delete(index=INDEX, id="extra", refresh="true")
    want(r["result"] == "deleted", "delete: %s", r)


@step("get a missing document is NotFoundError with found false")
def _():
    try:
        es.get(index=INDEX, id="extra")
    except NotFoundError as e:
        want(e.status_code == 404 and e.info.get("found") is False, "error: %r %s", e, e.info)
        return None
    return "no error"


# A missing index: 404 index_not_found_exception (the client raises NotFoundError with .error the type).
@step("search a missing index is NotFoundError index_not_found_exception")
def _():
    try:
        es.search(index="no-such-index", body={"query": {"match_all": {}}})
    except NotFoundError as e:
        want(
            e.status_code == 404
            and e.error == "index_not_found_exception"
            and e.info["error"]["index"] == "no-such-index"
            and e.info["error"]["root_cause"][0]["type"] == "index_not_found_exception",
            "error: %r %s",
            e,
            e.info,
        )
        return None
    return "no error"


# _core/search.yaml, _core/search/aggregations/{terms,avg,historgram}.yaml
@step("search with query and aggregations")
def _():
    r = es.search(
        index=INDEX,
        body={
            "size": 0,
            "query": {"bool": {"filter": [{"range": {"@timestamp": {"gte": "2024-03-15T00:00:00Z"}}}]}},
            "aggs": {
                "by_status": {"terms": {"field": "status"}},
                "per_hour": {"date_histogram": {"field": "@timestamp", "fixed_interval": "1h"}},
                "avg_bytes": {"avg": {"field": "bytes"}},
                "p": {"percentiles": {"field": "bytes", "percents": [50, 99]}},
            },
        },
    )
    a = r["aggregations"]
    want(r["hits"]["total"] == {"value": N_DOCS, "relation": "eq"}, "total: %s", r["hits"]["total"])
    b = a["by_status"]["buckets"]
    want([x["key"] for x in b] == [200, 404, 500] and b[0]["doc_count"] == 600, "terms: %s", b)
    h = a["per_hour"]["buckets"]
    want(len(h) == 17 and h[0]["key_as_string"] == "2024-03-15T00:00:00.000Z" and h[0]["doc_count"] == 60, "histogram: %s", h[:2])
    want(abs(a["avg_bytes"]["value"] - (sum(100 + i % 900 for i in range(N_DOCS)) / N_DOCS)) < 1e-6, "avg: %s", a["avg_bytes"])
    want(set(a["p"]["values"].keys()) == {"50.0", "99.0"}, "percentiles: %s", a["p"])


@step("match on an IP inside message")
def _():
    r = es.search(index=INDEX, body={"query": {"match": {"message": "203.0.113.61"}}}, size=1)
    want(r["hits"]["total"]["value"] == N_DOCS // 4, "hits: %s", r["hits"]["total"])


# _core/search.yaml: sort + search_after pages through everything once.
@step("sort and search_after")
def _():
    seen, after = [], None
    while True:
        body = {"size": 100, "query": {"term": {"status": 404}}, "sort": [{"@timestamp": "asc"}, {"path": "asc"}]}
        if after:
            body["search_after"] = after
        hits = es.search(index=INDEX, body=body)["hits"]["hits"]
        if not hits:
            break
        seen += [h["_id"] for h in hits]
        after = hits[-1]["sort"]
    want(len(seen) == N_DOCS // 5 and len(set(seen)) == len(seen), "seen %d", len(seen))


# The query_string parser error: 400 search_phase_execution_exception, caused by a parse error.
@step("query_string syntax error is RequestError search_phase_execution_exception")
def _():
    try:
        es.search(index=INDEX, body={"query": {"query_string": {"query": "status:(200 OR"}}})
    except RequestError as e:
        want(e.status_code == 400 and e.error == "search_phase_execution_exception", "error: %r", e)
        return None
    return "no error"


# _core/search/scroll.yaml
@step("scroll and clear_scroll")
def _():
    r = es.search(index=INDEX, body={"query": {"term": {"status": 500}}}, scroll="1m", size=60)
    sid, n = r["_scroll_id"], len(r["hits"]["hits"])
    while True:
        r = es.scroll(scroll_id=sid, scroll="1m")
        if not r["hits"]["hits"]:
            break
        n += len(r["hits"]["hits"])
        sid = r["_scroll_id"]
    c = es.clear_scroll(scroll_id=sid)
    want(n == N_DOCS // 5 and c == {"succeeded": True, "num_freed": 1}, "scrolled %d, clear %s", n, c)


# helpers.scan (helpers/actions.py: search with scroll, scroll until empty, clear_scroll).
@step("helpers.scan")
def _():
    ids = [h["_id"] for h in helpers.scan(es, index=INDEX, query={"query": {"term": {"path": "/login"}}}, size=50)]
    want(len(ids) == N_DOCS // 5 and len(set(ids)) == len(ids), "scanned %d", len(ids))


# helpers.reindex (scan + streaming_bulk into another index); _core/reindex.yaml for the server side.
@step("helpers.reindex and the reindex API")
def _():
    ok, errs = helpers.reindex(es, INDEX, "errors-copy", query={"query": {"term": {"status": 500}}})
    r = es.reindex(body={"source": {"index": INDEX, "query": {"term": {"status": 404}}}, "dest": {"index": "missing-copy"}}, refresh=True)
    es.indices.refresh(index="errors-copy")
    n = es.count(index="errors-copy")["count"]
    # helpers.reindex calls bulk with stats_only=True, so errs is a count (helpers/actions.py).
    want(ok == N_DOCS // 5 and errs == 0 and n == N_DOCS // 5, "helpers.reindex: %s %s %d", ok, errs, n)
    want(r["created"] == N_DOCS // 5 and r["failures"] == [], "reindex: %s", r)


# _core/search/point_in_time.yaml: OpenSearch's PIT routes are /{index}/_search/point_in_time; the
# 7.17 client's open_point_in_time is Elasticsearch's /_pit, so the workflow asks through the
# transport, as one does with this client against OpenSearch.
@step("point in time with search_after")
def _():
    t = es.transport
    p = t.perform_request("POST", "/%s/_search/point_in_time" % INDEX, params={"keep_alive": "1m"})
    pit = p["pit_id"]
    es.index(index=INDEX, id="after-pit", body=log_line(0), refresh="true")
    seen, after = 0, None
    while True:
        body = {"size": 90, "query": {"term": {"status": 500}}, "pit": {"id": pit, "keep_alive": "1m"}, "sort": [{"@timestamp": "asc"}]}
        if after:
            body["search_after"] = after
        r = es.search(body=body)
        hits = r["hits"]["hits"]
        if not hits:
            break
        seen += len(hits)
        after = hits[-1]["sort"]
        want(r.get("pit_id"), "no pit_id in the answer")
    d = t.perform_request("DELETE", "/_search/point_in_time", body={"pit_id": [pit]})
    es.delete(index=INDEX, id="after-pit", refresh="true")
    want(seen == N_DOCS // 5 and d["pits"][0]["successful"] and d["pits"][0]["pit_id"] == pit, "seen %d, delete %s", seen, d)


# The client's Elasticsearch-only PIT API meets a route OpenSearch does not have: a 400 with
# "no handler found for uri [...] and method [POST]" (RestController), raised as RequestError.
@step("Elasticsearch's open_point_in_time (/_pit) is refused as by OpenSearch")
def _():
    try:
        es.open_point_in_time(index=INDEX, keep_alive="1m")
    except RequestError as e:
        want(e.status_code == 400 and "no handler found for uri" in str(e.error), "error: %r", e)
        return None
    except Exception as e:  # noqa: BLE001
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


# _core/msearch.yaml
@step("msearch")
def _():
    r = es.msearch(
        index=INDEX,
        body=[{}, {"query": {"term": {"status": 404}}, "size": 0}, {"index": INDEX}, {"query": {"match": {"client_ip": "203.0.113.7"}}, "size": 1}],
    )
    t = [x["hits"]["total"]["value"] for x in r["responses"]]
    want(t == [N_DOCS // 5, N_DOCS // 4] and all(x["status"] == 200 for x in r["responses"]), "msearch: %s", t)


# _core/mget.yaml
@step("mget")
def _():
    r = es.mget(index=INDEX, body={"ids": ["1", "2", "nope"]})
    want([d["found"] for d in r["docs"]] == [True, True, False], "mget: %s", r)


# indices/update_by_query.yaml
@step("update_by_query with a script")
def _():
    r = es.update_by_query(
        index=INDEX,
        body={"query": {"term": {"status": 500}}, "script": {"source": "ctx._source.flagged = true", "lang": "painless"}},
        refresh=True,
    )
    n = es.count(index=INDEX, body={"query": {"term": {"flagged": True}}})["count"]
    want(r["updated"] == N_DOCS // 5 and r["failures"] == [] and n == N_DOCS // 5, "update_by_query: %s, count %d", r, n)


# indices/delete_by_query.yaml
@step("delete_by_query")
def _():
    r = es.delete_by_query(index=INDEX, body={"query": {"term": {"status": 404}}}, refresh=True)
    want(r["deleted"] == N_DOCS // 5 and r["failures"] == [], "delete_by_query: %s", r)


# indices/alias/alias.yaml, indices/aliases/aliases.yaml
@step("aliases")
def _():
    es.indices.put_alias(index=INDEX, name="logs-read")
    es.indices.update_aliases(body={"actions": [{"add": {"index": INDEX, "alias": "logs-errors", "filter": {"term": {"status": 500}}}}]})
    g = es.indices.get_alias(name="logs-read")
    n = es.count(index="logs-errors")["count"]
    want(g == {INDEX: {"aliases": {"logs-read": {}}}}, "get_alias: %s", g)
    want(n == N_DOCS // 5 and es.indices.exists_alias(name="logs-errors"), "filtered alias count %d", n)
    es.indices.delete_alias(index=INDEX, name="logs-errors")
    want(not es.indices.exists_alias(name="logs-errors"), "alias still there")


# Legacy templates (_template): put, get, exists, applied to a later index.
@step("legacy index template")
def _():
    r = es.indices.put_template(
        name="legacy-audit", body={"index_patterns": ["audit-*"], "order": 1, "mappings": {"properties": {"user": {"type": "keyword"}}}}
    )
    es.indices.create(index="audit-1")
    g = es.indices.get_template(name="legacy-audit")
    m = es.indices.get_mapping(index="audit-1")["audit-1"]["mappings"]["properties"]
    want(r == {"acknowledged": True} and g["legacy-audit"]["index_patterns"] == ["audit-*"], "template: %s", g)
    want(m.get("user") == {"type": "keyword"} and es.indices.exists_template(name="legacy-audit"), "mapping: %s", m)


# indices/index_template.yaml: get, exists.
@step("index template get and exists")
def _():
    g = es.indices.get_index_template(name="logs")
    want(g["index_templates"][0]["name"] == "logs" and es.indices.exists_index_template(name="logs"), "get: %s", g)


# sql/sql.yaml: the SQL plugin's JDBC format (schema, datarows, total, size, status).
@step("SQL through a raw request")
def _():
    r = es.transport.perform_request(
        "POST", "/_plugins/_sql", body={"query": "SELECT status, COUNT(*) AS n FROM %s GROUP BY status ORDER BY status" % INDEX}
    )
    want(r["status"] == 200 and r["datarows"] == [[200, 600], [500, 200]] and r["total"] == 2, "sql: %s", r)
    want([c["name"] for c in r["schema"]] == ["status", "n"], "schema: %s", r["schema"])


# gzip: http_compress=True sends Content-Encoding: gzip bodies (connection/http_urllib3.py) and
# accepts gzip answers; the whole workflow ran with it. Here a client without it, and a body gzipped
# by hand through that client's connection (which compresses nothing itself).
@step("gzip request bodies and an uncompressed client")
def _():
    plain = client(compress=False)
    n = plain.count(index=INDEX, body={"query": {"term": {"status": 200}}})["count"]
    c = es.transport.get_connection()
    want(c.http_compress is True and c.headers.get("accept-encoding") == "gzip,deflate", "compression is off")
    body = gzip.compress(json.dumps({"query": {"term": {"status": 200}}}).encode())
    conn = plain.transport.get_connection()
    status, headers, data = conn.perform_request(
        "POST", "/%s/_count" % INDEX, body=body, headers={"content-encoding": "gzip", "content-type": "application/json"}
    )
    want(n == 600 and json.loads(data)["count"] == 600, "counts: %d %s", n, data)


# The security plugin's answer to bad credentials: 401, text "Unauthorized". The product check's
# GET / meets the 401 first and lets it pass with a warning (transport.py _do_verify_elasticsearch);
# the request itself then raises AuthenticationException, whose .error is the raw text.
@step("wrong password is AuthenticationException 401 Unauthorized")
def _():
    bad = client(password="wrong", verified=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            bad.search(index=INDEX)
        except AuthenticationException as e:
            want(e.status_code == 401 and e.error == "Unauthorized" and e.info is None, "error: %r", e)
            return None
    return "no error"


# _core/search.yaml: a URI search (q=) and rest_total_hits_as_int, as older log tools send them.
@step("URI search with q and rest_total_hits_as_int")
def _():
    r = es.search(index=INDEX, q="status:500 AND path:\"/static/app.js\"", rest_total_hits_as_int=True, size=0)
    want(r["hits"]["total"] == N_DOCS // 5, "total: %s", r["hits"]["total"])


# A highlight on the matched words of message (_core/search.yaml).
@step("search with highlight")
def _():
    r = es.search(index=INDEX, body={"query": {"match": {"message": "orders"}}, "highlight": {"fields": {"message": {}}}}, size=1)
    hl = r["hits"]["hits"][0]["highlight"]["message"][0]
    want("<em>orders</em>" in hl, "highlight: %s", hl)


# cat/indices.yaml with format=json.
@step("cat indices (json)")
def _():
    r = es.cat.indices(index=INDEX, format="json")
    want(len(r) == 1 and r[0]["index"] == INDEX and r[0]["docs.count"] == str(N_DOCS - N_DOCS // 5) and r[0]["health"] in ("green", "yellow"), "cat: %s", r)


# _core/search/_source.yaml (get_source), _core/field_caps.yaml, indices stats.
@step("get_source, field_caps and index stats")
def _():
    src = es.get_source(index=INDEX, id="2")
    fc = es.field_caps(index=INDEX, fields="status,message")
    st = es.indices.stats(index=INDEX, metric="docs")
    want(src == log_line(2), "source: %s", src)
    want(fc["fields"]["status"]["integer"]["aggregatable"] and not fc["fields"]["message"]["text"]["aggregatable"], "field_caps: %s", fc)
    want(st["_all"]["primaries"]["docs"]["count"] == N_DOCS - N_DOCS // 5, "stats: %s", st["_all"])


# indices/mapping/mapping.yaml: a new field; cluster/settings.yaml: a persistent setting.
@step("put mapping and cluster settings")
def _():
    r = es.indices.put_mapping(index=INDEX, body={"properties": {"user_agent": {"type": "keyword"}}})
    m = es.indices.get_field_mapping(index=INDEX, fields="user_agent")
    s = es.cluster.put_settings(body={"persistent": {"search.max_buckets": 20000}})
    g = es.cluster.get_settings()
    want(r == {"acknowledged": True} and m[INDEX]["mappings"]["user_agent"]["mapping"] == {"user_agent": {"type": "keyword"}}, "mapping: %s", m)
    want(s["acknowledged"] and g["persistent"]["search"]["max_buckets"] == "20000", "cluster settings: %s", g)


# A long delete_by_query as a task: wait_for_completion=false answers {"task": "node:id"}, and the
# tasks API reports it completed with its response (tasks/get).
@step("delete_by_query as a task, then tasks.get")
def _():
    r = es.delete_by_query(index="errors-copy", body={"query": {"match_all": {}}}, wait_for_completion=False, refresh=True)
    t = es.tasks.get(task_id=r["task"], wait_for_completion=True)
    want(":" in r["task"] and t["completed"] is True and t["response"]["deleted"] == N_DOCS // 5, "task: %s %s", r, t)


# indices/alias/rollover.yaml: a write alias rolls over to the next index.
@step("rollover a write alias")
def _():
    es.indices.create(index="app-000001", body={"aliases": {"app": {"is_write_index": True}}})
    es.index(index="app", body={"message": "x"}, refresh="true")
    r = es.indices.rollover(alias="app", body={"conditions": {"max_docs": 1}})
    want(r["rolled_over"] and r["old_index"] == "app-000001" and r["new_index"] == "app-000002" and r["conditions"] == {"[max_docs: 1]": True}, "rollover: %s", r)


# More aggregations a log dashboard asks for: unique clients (cardinality), a terms bucket with a
# sub-aggregation, byte ranges, and the latest hit per path (top_hits); _core/search/aggregations/
# {bucket,range,terms_aggregate_nested_aggs}.yaml.
@step("cardinality, sub-aggregations, range and top_hits")
def _():
    r = es.search(
        index=INDEX,
        body={
            "size": 0,
            "aggs": {
                "clients": {"cardinality": {"field": "client_ip"}},
                "by_path": {"terms": {"field": "path", "size": 2, "order": {"_key": "asc"}}, "aggs": {"b": {"avg": {"field": "bytes"}}, "last": {"top_hits": {"size": 1, "sort": [{"@timestamp": "desc"}], "_source": ["@timestamp"]}}}},
                "sizes": {"range": {"field": "bytes", "ranges": [{"to": 500}, {"from": 500}]}},
            },
        },
    )
    a = r["aggregations"]
    paths = a["by_path"]["buckets"]
    want(a["clients"]["value"] == 4, "cardinality: %s", a["clients"])
    want([b["key"] for b in paths] == ["/api/v1/orders", "/favicon.ico"] and "value" in paths[0]["b"], "terms: %s", paths)
    top = paths[0]["last"]["hits"]["hits"][0]
    want(set(top["_source"].keys()) == {"@timestamp"} and top["sort"], "top_hits: %s", top)
    rs = a["sizes"]["buckets"]
    want([b["key"] for b in rs] == ["*-500.0", "500.0-*"] and sum(b["doc_count"] for b in rs) == r["hits"]["total"]["value"], "range: %s", rs)


# Sort and source filtering. Since 7.15 the client moves body parameters given as keywords into
# the body (client/utils.py query_params, search's body_params), so sort="@timestamp:desc" arrives
# as {"sort": "@timestamp:desc"}, which OpenSearch reads as one field name and refuses on the
# shard ("No mapping found for [@timestamp:desc] in order to sort on", 400
# search_phase_execution_exception); params={"sort": ...} keeps it in the URL, where RestSearchAction
# splits field:order. _source_includes is a URL parameter either way.
@step("sort keyword (body) and URL sort with _source filtering")
def _():
    try:
        es.search(index=INDEX, sort="@timestamp:desc", size=3)
        return "a body sort of '@timestamp:desc' was accepted"
    except RequestError as e:
        want(e.error == "search_phase_execution_exception" and "No mapping found for [@timestamp:desc]" in str(e.info), "error: %r", e)
    r = es.search(index=INDEX, params={"sort": "@timestamp:desc"}, _source_includes="path,status", size=3)
    hits = r["hits"]["hits"]
    want(len(hits) == 3 and all(set(h["_source"]) <= {"path", "status"} for h in hits), "source: %s", hits)
    want(hits[0]["sort"][0] >= hits[1]["sort"][0] >= hits[2]["sort"][0], "sort: %s", [h["sort"] for h in hits])


# indices/update.yaml: doc_as_upsert creates, then updates; create refuses an existing id.
@step("upsert and create")
def _():
    a = es.update(index=INDEX, id="up", body={"doc": {"path": "/up", "status": 200}, "doc_as_upsert": True})
    b = es.update(index=INDEX, id="up", body={"doc": {"status": 201}, "doc_as_upsert": True})
    c = es.create(index=INDEX, id="new", body={"path": "/new"})
    try:
        es.create(index=INDEX, id="new", body={"path": "/new"})
        return "create of an existing id succeeded"
    except ConflictError as e:
        want(e.error == "version_conflict_engine_exception", "error: %r", e)
    es.delete(index=INDEX, id="up")
    es.delete(index=INDEX, id="new", refresh="true")
    want(a["result"] == "created" and b["result"] == "updated" and c["result"] == "created", "results: %s %s %s", a, b, c)


# _core/bulk.yaml: an item the mapping refuses fails alone (mapper_parsing_exception, 400), and
# helpers.streaming_bulk yields it without raising when raise_on_error is off.
@step("helpers.streaming_bulk with a refused item")
def _():
    actions = [{"_index": INDEX, "_id": "ok1", "_source": log_line(1)}, {"_index": INDEX, "_id": "bad", "_source": {"status": "not-a-number"}}]
    out = list(helpers.streaming_bulk(es, actions, raise_on_error=False, refresh="true"))
    (ok1, r1), (ok2, r2) = out
    err = r2["index"]["error"]
    want(ok1 and not ok2 and r2["index"]["status"] == 400 and err["type"] == "mapper_parsing_exception" and "[status]" in err["reason"], "items: %s", out)


# Retention housekeeping: a force merge after the writes (indices/forcemerge.yaml).
@step("forcemerge")
def _():
    f = es.indices.forcemerge(index=INDEX, max_num_segments=1)
    want(f["_shards"]["failed"] == 0 and f["_shards"]["successful"] >= 1, "forcemerge: %s", f)


# Closing an index keeps it but refuses reads (index_closed_exception, 400) until it is opened,
# with every document still there (indices/close.yaml, indices/open.yaml).
@step("close and open")
def _():
    before = es.count(index=INDEX)["count"]
    c = es.indices.close(index=INDEX)
    try:
        es.search(index=INDEX)
        return "search on a closed index succeeded"
    except RequestError as e:
        want(e.error == "index_closed_exception", "closed: %r", e)
    o = es.indices.open(index=INDEX)
    n = es.count(index=INDEX)["count"]
    want(c["acknowledged"] and c["indices"][INDEX]["closed"] and o["acknowledged"] and n == before, "answers: %s %s %d", c, o, n)


# A data stream, the usual home of logs in OpenSearch 2.x: a template with data_stream, the first
# write creates the stream and its backing index, searches read through the stream
# (indices/data_stream.yaml).
@step("data stream")
def _():
    es.indices.put_index_template(name="ds", body={"index_patterns": ["ds-logs*"], "data_stream": {}, "priority": 10})
    r = es.index(index="ds-logs", body={"@timestamp": "2024-03-15T00:00:00Z", "message": "hello"}, op_type="create", refresh="true")
    g = es.transport.perform_request("GET", "/_data_stream/ds-logs")
    n = es.count(index="ds-logs")["count"]
    es.transport.perform_request("DELETE", "/_data_stream/ds-logs")
    es.indices.delete_index_template(name="ds")
    want(r["_index"] == ".ds-ds-logs-000001" and g["data_streams"][0]["name"] == "ds-logs" and n == 1, "data stream: %s %s %d", r, g, n)


# indices/delete.yaml
@step("delete indices and templates")
def _():
    r = es.indices.delete(index="%s,errors-copy,missing-copy,scratch,audit-1,app-000001,app-000002" % INDEX)
    es.indices.delete_index_template(name="logs")
    es.indices.delete_template(name="legacy-audit")
    want(r == {"acknowledged": True} and not es.indices.exists(index=INDEX), "delete: %s", r)


print(
    json.dumps(
        {
            "client": "elasticsearch-py %s" % elasticsearch.__versionstr__,
            "tried": tried,
            "passed": passed,
            "failed": failed,
            "known_gaps": known_gaps,
        }
    )
)
