//go:build unix

package connect

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// pgStandIn is the start of a PostgreSQL server: it accepts TLS (SSLRequest), reads the
// startup message, asks for a cleartext password, records it and refuses the login. That
// is enough to see that a real psql verifies the server against the CA file, and reads the
// password from the passfile.
type pgStandIn struct {
	addr string
	got  chan map[string]string // startup parameters plus "password"
}

func startPGStandIn(t *testing.T, ca testCA) *pgStandIn {
	t.Helper()
	cert, err := tls.X509KeyPair([]byte(ca.serverCertPEM), []byte(ca.serverKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &pgStandIn{addr: ln.Addr().String(), got: make(chan map[string]string, 4)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c, &tls.Config{Certificates: []tls.Certificate{cert}})
		}
	}()
	return p
}

func (p *pgStandIn) serve(raw net.Conn, cfg *tls.Config) {
	defer raw.Close()
	_ = raw.SetDeadline(time.Now().Add(20 * time.Second))
	// SSLRequest (80877103); GSSENCRequest (80877104) is declined first when sent.
	for {
		msg, err := readUntyped(raw)
		if err != nil || len(msg) < 4 {
			return
		}
		switch binary.BigEndian.Uint32(msg) {
		case 80877104:
			_, _ = raw.Write([]byte("N"))
			continue
		case 80877103:
			_, _ = raw.Write([]byte("S"))
		default:
			return // a client that did not ask for TLS: the test fails on no record
		}
		break
	}
	c := tls.Server(raw, cfg)
	if c.Handshake() != nil {
		return // e.g. the client rejected the certificate
	}
	startup, err := readUntyped(c)
	if err != nil || len(startup) < 4 {
		return
	}
	params := map[string]string{}
	kv := strings.Split(string(startup[4:]), "\x00")
	for i := 0; i+1 < len(kv); i += 2 {
		params[kv[i]] = kv[i+1]
	}
	// AuthenticationCleartextPassword.
	_, _ = c.Write([]byte{'R', 0, 0, 0, 8, 0, 0, 0, 3})
	r := bufio.NewReader(c)
	if typ, err := r.ReadByte(); err == nil && typ == 'p' {
		if body, err := readUntyped(r); err == nil {
			params["password"] = strings.TrimSuffix(string(body), "\x00")
		}
	}
	p.got <- params
	fields := "SFATAL\x00C28P01\x00Mstand-in server: login recorded\x00\x00"
	msg := append([]byte{'E'}, binary.BigEndian.AppendUint32(nil, uint32(4+len(fields)))...)
	_, _ = c.Write(append(msg, fields...))
}

// readUntyped reads a length-prefixed message body (the length counts itself).
func readUntyped(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	l := binary.BigEndian.Uint32(n[:])
	if l < 4 || l > 1<<16 {
		return nil, io.ErrUnexpectedEOF
	}
	body := make([]byte, l-4)
	_, err := io.ReadFull(r, body)
	return body, err
}

func TestRealPsqlUsesPassfileAndVerifiesTheServer(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not on PATH (Debian package postgresql-client); the stand-in tests cover the command line")
	}
	ca := newTestCA(t, "localhost")
	srv := startPGStandIn(t, ca)
	_, port, _ := net.SplitHostPort(srv.addr)
	p, _ := strconv.Atoi(port)

	try := func(caPEM string) (string, map[string]string) {
		tg := Target{
			Service: models.Service{ServiceName: "pg-real", ServiceType: models.TypePG, State: models.StateRunning},
			Conn:    models.ConnectionInfo{Host: "localhost", Port: models.FlexInt(p), User: "avnadmin", Password: secret, Database: "defaultdb", CACert: caPEM},
		}
		s, err := Plan(tg, Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Cleanup()
		if s.Cmd.Path != psql {
			t.Fatalf("ran %s, want %s", s.Cmd.Path, psql)
		}
		// -w: never prompt, so a passfile that is not used fails rather than hangs.
		s.Cmd.Args = append(s.Cmd.Args, "-w", "-c", "select 1")
		var out bytes.Buffer
		s.Cmd.Stdout, s.Cmd.Stderr = &out, &out
		_ = s.Run()
		select {
		case got := <-srv.got:
			return out.String(), got
		case <-time.After(2 * time.Second):
			return out.String(), nil
		}
	}

	out, got := try(ca.certPEM)
	if got == nil {
		t.Fatalf("psql did not log in to the stand-in server: %s", out)
	}
	if got["password"] != secret || got["user"] != "avnadmin" || got["database"] != "defaultdb" || got["application_name"] != "svcui" {
		t.Errorf("the server saw %v", got)
	}
	if !strings.Contains(out, "stand-in server: login recorded") {
		t.Errorf("psql output %q", out)
	}

	// A server the service CA did not sign is refused before any password is sent.
	out, got = try(newTestCA(t, "localhost").certPEM)
	if got != nil {
		t.Errorf("psql sent a login to a server its CA did not sign: %v", got)
	}
	if !strings.Contains(out, "certificate verify failed") {
		t.Errorf("psql output %q, want a certificate failure", out)
	}
}
