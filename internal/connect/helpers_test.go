//go:build unix

package connect

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"encoding/xml"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// secret is a password with every character the files must escape.
const secret = `s3cr3t:Pa\ss"w'rd#`

// rig is a PATH holding stand-in clients, a parent for the private directories and the
// log the stand-ins write.
type rig struct {
	t      *testing.T
	bin    string
	parent string
	log    string
	env    []string
}

func newRig(t *testing.T, clients ...string) *rig {
	t.Helper()
	r := &rig{t: t, bin: t.TempDir(), parent: t.TempDir()}
	r.log = filepath.Join(t.TempDir(), "standin.log")
	script, err := os.ReadFile("testdata/standin.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		if err := os.WriteFile(filepath.Join(r.bin, c), script, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", r.bin)
	r.env = []string{"PATH=" + r.bin, "STANDIN_LOG=" + r.log, "STANDIN_PARENT=" + r.parent,
		"PGPASSWORD=inherited-wrong", "VALKEYCLI_AUTH=inherited-wrong", "SVCUI_TOKEN=platform-token"}
	return r
}

func (r *rig) opts(extraEnv ...string) Options {
	return Options{TempDir: r.parent, Env: append(append([]string(nil), r.env...), extraEnv...)}
}

// plan plans and registers the cleanup.
func (r *rig) plan(tg Target, extraEnv ...string) *Session {
	r.t.Helper()
	s, err := Plan(tg, r.opts(extraEnv...))
	if err != nil {
		r.t.Fatalf("Plan: %v", err)
	}
	r.t.Cleanup(func() { _ = s.Cleanup() })
	return s
}

type fileRecord struct{ mode, content string }

// record is what one stand-in run wrote.
type record struct {
	prog    string
	args    []string
	env     map[string]string
	dirMode string
	dir     string
	files   map[string]fileRecord // by base name
}

func (r *rig) record() record {
	r.t.Helper()
	f, err := os.Open(r.log)
	if err != nil {
		r.t.Fatalf("the stand-in client did not run: %v", err)
	}
	defer f.Close()
	rec := record{env: map[string]string{}, files: map[string]fileRecord{}}
	var cur string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "prog":
			rec.prog = rest
		case "arg":
			rec.args = append(rec.args, rest)
		case "env":
			k, v, _ := strings.Cut(rest, "=")
			rec.env[k] = v
		case "dir":
			rec.dirMode, rec.dir, _ = strings.Cut(rest, " ")
		case "file":
			mode, path, _ := strings.Cut(rest, " ")
			cur = filepath.Base(path)
			rec.files[cur] = fileRecord{mode: mode}
		case "|":
			fr := rec.files[cur]
			fr.content += rest + "\n"
			rec.files[cur] = fr
		}
	}
	return rec
}

// run runs the session as the console would, Enter already typed.
func run(t *testing.T, s *Session) (string, error) {
	t.Helper()
	var out strings.Builder
	s.SetStdin(strings.NewReader("\n"))
	s.SetStdout(&out)
	err := s.Run()
	return out.String(), err
}

// joined is argv as one string, for substring checks.
func (rec record) joined() string { return strings.Join(rec.args, "\x00") }

func (rec record) hasArgs(t *testing.T, want ...string) {
	t.Helper()
	j := "\x00" + rec.joined() + "\x00"
	for _, w := range want {
		if !strings.Contains(j, "\x00"+w+"\x00") {
			t.Errorf("argument %q missing from %q", w, rec.args)
		}
	}
}

// noSecrets checks the rules every client follows: no password in argv, svcui's token
// and inherited credentials gone, a private directory of owner-only files.
func (rec record) noSecrets(t *testing.T, password string) {
	t.Helper()
	for _, a := range rec.args {
		if strings.Contains(a, password) {
			t.Errorf("the password is in argv: %q", a)
		}
	}
	for k, v := range rec.env {
		if v == "platform-token" || v == "inherited-wrong" {
			t.Errorf("the client inherited %s", k)
		}
	}
	if rec.dirMode != "drwx------" {
		t.Errorf("private directory mode = %q, want drwx------", rec.dirMode)
	}
	for name, f := range rec.files {
		if f.mode != "-rw-------" {
			t.Errorf("%s mode = %q, want -rw-------", name, f.mode)
		}
	}
}

// service builds a running service of a type with connection information.
func service(typ string, ca string) Target {
	return Target{
		Service: models.Service{ServiceName: typ + "-main", ServiceType: typ, State: models.StateRunning,
			ServiceURI: typ + "://avnadmin:" + "uri-password" + "@" + typ + ".example.com:1234/defaultdb"},
		Conn: models.ConnectionInfo{Host: typ + ".example.com", Port: 1234, User: "avnadmin", Password: secret, CACert: ca},
	}
}

// testCA is a CA and a server certificate for names, signed by it (PEM).
type testCA struct {
	certPEM       string
	serverCertPEM string
	serverKeyPEM  string
	root          *x509.Certificate
}

func newTestCA(t *testing.T, names ...string) testCA {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "svcui test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, root, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	return testCA{
		certPEM:       string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})),
		serverCertPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		serverKeyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})),
		root:          root,
	}
}

// privateDir is the private directory, "" once removed.
func (s *Session) privateDir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
}

// escapeXML writes what encoding/xml's EscapeText writes, for every kind of character.
func TestEscapeXMLAsEncodingXML(t *testing.T) {
	for _, v := range []string{"plain", `p"a'ss<w>&rd`, "tab\tnl\ncr\r", "nul\x00esc\x1b", "ünï ★ \U0001F600", "\xff bad", "\uFFFE"} {
		var want bytes.Buffer
		_ = xml.EscapeText(&want, []byte(v))
		var got bytes.Buffer
		escapeXML(&got, v)
		if got.String() != want.String() {
			t.Errorf("%q: got %q, encoding/xml %q", v, got.String(), want.String())
		}
	}
}
