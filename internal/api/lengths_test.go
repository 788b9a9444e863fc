package api

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

// A list whose length the platform does not say (chunked) is decoded, from its second
// answer on, with the length of the one before: the decoder presizes the list instead
// of collecting it in pages and copying them into one slice beside them.
func TestChunkedListIsDecodedWithTheLastAnswersLength(t *testing.T) {
	var written countingWriter
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		writeProjectList(&written, 6000)
		writeProjectList(w, 6000) // more than a buffer: sent chunked, without a length
	}))
	var sizes []int64
	dec := answerDecoder{kind: projectListDecoder.kind, read: func(ctx context.Context, d *json.Decoder, size int64) (any, error) {
		sizes = append(sizes, size)
		return projectListDecoder.read(ctx, d, size)
	}}
	var lists []*projectListAnswer
	for range 2 {
		resp, _, err := c.call(ctxT(t), http.MethodGet, "/v1/project", nil, nil, dec)
		if err != nil {
			t.Fatal(err)
		}
		lists = append(lists, resp.value.(*projectListAnswer))
	}
	answer := written.n / 2
	if sizes[0] != -1 || sizes[1] != answer {
		t.Fatalf("lengths given to the decoder: %v, want [-1 %d]", sizes, answer)
	}
	first, second := lists[0].pl.Projects, lists[1].pl.Projects
	if len(first) != 6000 || len(second) != 6000 {
		t.Fatalf("decoded %d and %d projects, want 6000", len(first), len(second))
	}
	if cap(second) == len(second) {
		t.Fatalf("the second list was not presized (cap %d = len): its pages were copied", cap(second))
	}
}
