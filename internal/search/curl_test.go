package search

import (
	"os/exec"
	"strings"
	"testing"
)

func TestCurlCommand(t *testing.T) {
	tg := Target{Host: "os-demo.example.com", Port: 24947, Username: "avnadmin", Password: testPass, CACertPEM: "PEM"}
	cases := []struct {
		req  ParsedRequest
		want string
	}{
		{ParsedRequest{Method: "GET", Path: "/_cluster/health?pretty"},
			`curl -sS -u 'avnadmin' --cacert ca.pem -X GET 'https://os-demo.example.com:24947/_cluster/health?pretty'`},
		{ParsedRequest{Method: "POST", Path: "/logs/_doc", Body: `{"msg": "it's here"}`},
			`curl -sS -u 'avnadmin' --cacert ca.pem -X POST 'https://os-demo.example.com:24947/logs/_doc' -H 'Content-Type: application/json' -d '{"msg": "it'\''s here"}'`},
		{ParsedRequest{Method: "POST", Path: "/_bulk", Body: "{\"index\":{}}\n{\n \"a\": \"$HOME\"\n}"},
			"curl -sS -u 'avnadmin' --cacert ca.pem -X POST 'https://os-demo.example.com:24947/_bulk' -H 'Content-Type: application/x-ndjson' --data-binary @- <<'EOF'\n{\"index\":{}}\n{\"a\":\"$HOME\"}\nEOF"},
		{ParsedRequest{Method: "HEAD", Path: "/logs"},
			`curl -sS -u 'avnadmin' --cacert ca.pem -I 'https://os-demo.example.com:24947/logs'`},
	}
	for _, c := range cases {
		got := CurlCommand(tg, c.req)
		if got != c.want {
			t.Fatalf("got\n%s\nwant\n%s", got, c.want)
		}
		if strings.Contains(got, testPass) {
			t.Fatal("password in curl command")
		}
	}
	insecure := CurlCommand(Target{Host: "h", Port: 1, Password: testPass, InsecureSkipVerify: true}, ParsedRequest{Method: "GET", Path: "x"})
	if insecure != `curl -sS -k -X GET 'https://h:1/x'` {
		t.Fatalf("insecure = %s", insecure)
	}
	multi := CurlCommand(tg, ParsedRequest{Method: "PUT", Path: "/x", Body: "{\n  \"a\": 1\n}"})
	if !strings.HasSuffix(multi, "<<'EOF'\n{\n  \"a\": 1\n}\nEOF") {
		t.Fatalf("multi-line = %s", multi)
	}
	tricky := CurlCommand(tg, ParsedRequest{Method: "PUT", Path: "/x", Body: "{\n\"a\":\nEOF\n}"})
	if !strings.Contains(tricky, "<<'EOF_X'") || !strings.HasSuffix(tricky, "\nEOF_X") {
		t.Fatalf("delimiter clash = %s", tricky)
	}
}

// TestCurlCommandShellQuoting runs the generated body through a real shell.
func TestCurlCommandShellQuoting(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	body := `{"q": "it's $HOME and ` + "`id`" + ` \"x\""}`
	cmd := CurlCommand(Target{Host: "h", Port: 1, Username: "o'brien"}, ParsedRequest{Method: "POST", Path: "/x", Body: body})
	// Replace curl with a printer of its arguments.
	script := "curl() { for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }\n" + cmd
	out, err := exec.Command(sh, "-c", script).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if args[2] != "o'brien" || args[len(args)-1] != body {
		t.Fatalf("shell saw %q", args)
	}
	heredoc := CurlCommand(Target{Host: "h", Port: 1}, ParsedRequest{Method: "POST", Path: "/_bulk", Body: "{\"index\":{}}\n{\"q\":\"$HOME `id`\"}"})
	script = "curl() { cat; }\n" + heredoc
	out, err = exec.Command(sh, "-c", script).Output()
	if err != nil || string(out) != "{\"index\":{}}\n{\"q\":\"$HOME `id`\"}\n" {
		t.Fatalf("here-document gave %q (%v)", out, err)
	}
}
