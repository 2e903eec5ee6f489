package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// as PEM files and returns their paths and the pool that trusts it.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "signet test"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeTLS: with --tls-cert and --tls-key the service answers over
// TLS only, and its default issuer is https.
func TestServeTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	r := startServe(t, []string{"--clients", clients, "--data", t.TempDir(), "--addr", "127.0.0.1:0",
		"--tls-cert", certFile, "--tls-key", keyFile}, nil)
	if r.inst.issuer != "https://"+r.inst.addr {
		t.Fatalf("issuer %q", r.inst.issuer)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest(http.MethodPost, r.inst.issuer+"/oauth2/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("svc-a", secretA)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("token over TLS: %d", res.StatusCode)
	}
	if res, err := http.Get("http://" + r.inst.addr + "/healthz"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Fatal("plain HTTP answered 200 on the TLS listener")
		}
	}
}

// TestServeTLSBadFiles: certificate files that do not load stop the
// start (exit 1) before listening.
func TestServeTLSBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pem")
	os.WriteFile(bad, []byte("not PEM"), 0o600)
	clients := writeClients(t, "", []string{"svc-a"}, []string{secretA})
	var stdout, stderr syncBuffer
	code := serve(t.Context(), []string{"--clients", clients, "--data", dir, "--addr", "127.0.0.1:0", "--tls-cert", bad, "--tls-key", bad},
		&stdout, &stderr, serveHooks{getenv: func(string) string { return "" }, ready: func(*instance) { t.Error("started") }})
	if code != exitRejected || !strings.Contains(stderr.String(), "TLS certificate") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}
