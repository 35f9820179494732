/* tls.c - the https:// transport: mbedTLS over a tcp.c connection, with
 * verification always on.  mbedTLS does its I/O through tcp.c's bounded
 * send and receive (our own BIO callbacks), so its waits have the same
 * limits as plain HTTP's.  Only a binary that links this file carries
 * mbedTLS; ebsbench-init links tls_none.c instead. */
#include "net/tls.h"
#include "net/internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>

#include "lib/lib.h"
#include "net/tcp.h"
#include "net/transport.h"

/* One https:// connection: TLS state over its TCP connection. */
struct tls_conn {
	struct tcp_conn tcp;
	bool got_bytes;
	bool plain_http; /* the peer's first bytes read "HTTP/" */
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	mbedtls_x509_crt ca;
	mbedtls_ssl_config conf;
	mbedtls_ssl_context ssl;
};

void tls_verify_words(uint32_t flags, char *buf, size_t len)
{
	static const struct {
		uint32_t flags;
		const char *words;
	} table[] = {
		{ MBEDTLS_X509_BADCERT_NOT_TRUSTED, "certificate not trusted" },
		{ MBEDTLS_X509_BADCERT_CN_MISMATCH, "hostname mismatch" },
		{ MBEDTLS_X509_BADCERT_EXPIRED, "expired" },
		{ MBEDTLS_X509_BADCERT_FUTURE, "not yet valid (is the clock right?)" },
		{ MBEDTLS_X509_BADCERT_REVOKED, "revoked" },
		{ MBEDTLS_X509_BADCERT_MISSING, "no certificate" },
		{ MBEDTLS_X509_BADCERT_KEY_USAGE | MBEDTLS_X509_BADCERT_EXT_KEY_USAGE |
			  MBEDTLS_X509_BADCERT_NS_CERT_TYPE,
		  "not meant for a TLS server" },
		{ MBEDTLS_X509_BADCERT_BAD_MD | MBEDTLS_X509_BADCERT_BAD_PK |
			  MBEDTLS_X509_BADCERT_BAD_KEY,
		  "weak or unsupported signature or key" },
	};
	size_t i, n = 0;
	uint32_t rest = flags;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(table) && n < len; i++) {
		if (!(flags & table[i].flags))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", table[i].words);
		rest &= ~table[i].flags;
	}
	if (n < len && (rest || !flags))
		snprintf(buf + n, len - n, "%sverify flags 0x%x", n ? ", " : "", (unsigned)rest);
}

/* mbedTLS's send callback: tcp.c's bounded send. */
static int bio_send(void *ctx, const unsigned char *buf, size_t len)
{
	struct tls_conn *t = ctx;
	ssize_t n = tcp_send_some(&t->tcp, buf, len < 65536 ? len : 65536);

	return n < 0 ? MBEDTLS_ERR_NET_SEND_FAILED : (int)n;
}

/* mbedTLS's receive callback: tcp.c's bounded receive, noting a peer
 * whose first bytes are plain HTTP. */
static int bio_recv(void *ctx, unsigned char *buf, size_t len)
{
	struct tls_conn *t = ctx;
	ssize_t n = tcp_recv_some(&t->tcp, buf, len < 65536 ? len : 65536);

	if (!t->got_bytes && n >= 5 && memcmp(buf, "HTTP/", 5) == 0)
		t->plain_http = true;
	t->got_bytes = t->got_bytes || n > 0;

	return n < 0 ? MBEDTLS_ERR_NET_RECV_FAILED : (int)n;
}

/* A local mbedTLS setup failure in f, in mbedTLS's words: -1. */
static int tls_local_fail(struct net_fail *f, const char *what, int ret)
{
	char msg[128];

	mbedtls_strerror(ret, msg, sizeof(msg));
	net_fail_set(f, HTTP_FAIL_LOCAL, "%s: %s", what, msg);
	return -1;
}

/* The PEM bundle ca_file into t->ca: 0, or -1 with a reason naming the
 * file. */
static int load_ca(struct tls_conn *t, const char *ca_file, struct net_fail *f)
{
	int ret = mbedtls_x509_crt_parse_file(&t->ca, ca_file);

	/* mbedTLS says only "file I/O error"; errno from a plain open says
	 * which. */
	if (ret == MBEDTLS_ERR_PK_FILE_IO_ERROR) {
		FILE *fp = fopen(ca_file, "r");
		int err = fp ? EIO : errno;

		if (fp)
			fclose(fp);
		net_fail_set(f, HTTP_FAIL_LOCAL, "CA file %s: %s", ca_file, strerror(err));
		return -1;
	}
	/* A positive count means some certificates of the bundle did not
	 * parse; the rest still serve. */
	if (ret < 0 || t->ca.version == 0) {
		char msg[128];

		if (ret < 0)
			mbedtls_strerror(ret, msg, sizeof(msg));
		net_fail_set(f, HTTP_FAIL_LOCAL, "CA file %s: %s", ca_file,
			     ret < 0 ? msg : "no certificates in it");
		return -1;
	}
	return 0;
}

/* Everything before the handshake, so that a bad CA file fails before any
 * network traffic. */
static int tls_prepare(struct tls_conn *t, const char *host, const char *ca_file,
		       struct net_fail *f)
{
	static const char pers[] = "ebsbench http";
	int ret;

	mbedtls_entropy_init(&t->entropy);
	mbedtls_ctr_drbg_init(&t->drbg);
	mbedtls_x509_crt_init(&t->ca);
	mbedtls_ssl_config_init(&t->conf);
	mbedtls_ssl_init(&t->ssl);
	if (load_ca(t, ca_file, f))
		return -1;
	ret = mbedtls_ctr_drbg_seed(&t->drbg, mbedtls_entropy_func, &t->entropy,
				    (const unsigned char *)pers, sizeof(pers) - 1);
	if (ret)
		return tls_local_fail(f, "seeding the TLS random generator", ret);
	ret = mbedtls_ssl_config_defaults(&t->conf, MBEDTLS_SSL_IS_CLIENT,
					  MBEDTLS_SSL_TRANSPORT_STREAM, MBEDTLS_SSL_PRESET_DEFAULT);
	if (ret)
		return tls_local_fail(f, "TLS configuration", ret);
	mbedtls_ssl_conf_authmode(&t->conf, MBEDTLS_SSL_VERIFY_REQUIRED);
	mbedtls_ssl_conf_ca_chain(&t->conf, &t->ca, NULL);
	mbedtls_ssl_conf_rng(&t->conf, mbedtls_ctr_drbg_random, &t->drbg);
	mbedtls_ssl_conf_min_version(&t->conf, MBEDTLS_SSL_MAJOR_VERSION_3,
				     MBEDTLS_SSL_MINOR_VERSION_3);
	ret = mbedtls_ssl_setup(&t->ssl, &t->conf);
	/* Sets SNI and the name the certificate must carry. */
	if (!ret)
		ret = mbedtls_ssl_set_hostname(&t->ssl, host);
	if (ret)
		return tls_local_fail(f, "TLS session setup", ret);
	mbedtls_ssl_set_bio(&t->ssl, t, bio_send, bio_recv, NULL);
	return 0;
}

/* An mbedTLS error: the socket's cause if there was one, else its words. */
static void fail_tls(const struct tls_conn *t, int ret, enum http_failure kind, const char *what,
		     struct net_fail *f)
{
	char msg[128];

	if (t->tcp.io_errno) {
		tcp_fail(&t->tcp, f, what);
		return;
	}
	mbedtls_strerror(ret, msg, sizeof(msg));
	net_fail_set(f, kind, "%s %s: %s", what, t->tcp.peer, msg);
}

/* The handshake, with a failure that says which way it failed. */
static int tls_handshake(struct tls_conn *t, struct net_fail *f)
{
	int ret;

	do
		ret = mbedtls_ssl_handshake(&t->ssl);
	while (ret == MBEDTLS_ERR_SSL_WANT_READ || ret == MBEDTLS_ERR_SSL_WANT_WRITE);
	if (ret == 0)
		return 0;
	if (ret == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED) {
		char words[200];

		tls_verify_words(mbedtls_ssl_get_verify_result(&t->ssl), words, sizeof(words));
		net_fail_set(f, HTTP_FAIL_TLS_VERIFY,
			     "TLS with %s: server certificate rejected: %s", t->tcp.peer, words);
	} else if (t->plain_http) {
		net_fail_set(f, HTTP_FAIL_TLS,
			     "TLS handshake with %s failed: the server answered in plain HTTP",
			     t->tcp.peer);
	} else if (ret == MBEDTLS_ERR_SSL_CONN_EOF && !t->tcp.io_errno) {
		net_fail_set(f, HTTP_FAIL_TLS,
			     "TLS handshake with %s failed: the server closed the connection",
			     t->tcp.peer);
	} else {
		fail_tls(t, ret, HTTP_FAIL_TLS, "TLS handshake with", f);
	}
	return -1;
}

/* Frees everything tls_open() set up; NULL is a no-op. */
static void tls_close(void *conn)
{
	struct tls_conn *t = conn;

	if (!t)
		return;
	mbedtls_ssl_free(&t->ssl);
	mbedtls_ssl_config_free(&t->conf);
	mbedtls_x509_crt_free(&t->ca);
	mbedtls_ctr_drbg_free(&t->drbg);
	mbedtls_entropy_free(&t->entropy);
	tcp_close(&t->tcp);
	free(t);
}

/* The CA bundle and TLS setup first, so that a bad CA file fails before
 * any network traffic; then TCP and a verified handshake. */
static void *tls_open(const struct url *u, const struct net_limits *lim, const char *ca_file,
		      struct net_fail *f)
{
	struct tls_conn *t = calloc(1, sizeof(*t));

	if (!t) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return NULL;
	}
	t->tcp.fd = -1;
	if (tls_prepare(t, u->host, ca_file, f) || tcp_connect(&t->tcp, u, lim, f) ||
	    tls_handshake(t, f)) {
		tls_close(t);
		return NULL;
	}
	return t;
}

/* Writes all of buf through TLS: 0, or -1 with f set. */
static int tls_send_all(void *conn, const void *buf, size_t len, struct net_fail *f)
{
	struct tls_conn *t = conn;
	const unsigned char *p = buf;

	while (len) {
		int n;

		do
			n = mbedtls_ssl_write(&t->ssl, p, len);
		while (n == MBEDTLS_ERR_SSL_WANT_READ || n == MBEDTLS_ERR_SSL_WANT_WRITE);
		if (n < 0) {
			fail_tls(t, n, HTTP_FAIL_NETWORK, "sending to", f);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads what TLS has: > 0 bytes, 0 at end of stream, -1 with f set. */
static ssize_t tls_recv(void *conn, void *buf, size_t len, struct net_fail *f)
{
	struct tls_conn *t = conn;
	int n;

	do
		n = mbedtls_ssl_read(&t->ssl, buf, len);
	while (n == MBEDTLS_ERR_SSL_WANT_READ || n == MBEDTLS_ERR_SSL_WANT_WRITE);
	/* Without close_notify too: HTTP framing catches a cut-off body. */
	if (n == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY ||
	    (n == MBEDTLS_ERR_SSL_CONN_EOF && !t->tcp.io_errno))
		return 0;
	if (n < 0)
		fail_tls(t, n, HTTP_FAIL_NETWORK, "reading from", f);
	return n;
}

const struct net_transport net_tls_transport = {
	.name = "tls",
	.open = tls_open,
	.send_all = tls_send_all,
	.recv = tls_recv,
	.close = tls_close,
};
