/* tls.c - TCP with bounded waits, and mbedTLS over it with verification
 * always on.
 *
 * Sockets are non-blocking and every wait is a poll() with the smaller of
 * the per-wait limit and the request's deadline, so a peer that stalls
 * costs a timeout, never a hang.  mbedTLS does its I/O through the same
 * bounded functions (our own BIO callbacks), which also send with
 * MSG_NOSIGNAL: a peer that resets must not kill us with SIGPIPE. */
#include "net/tls.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>

#include "lib/lib.h"

struct tls {
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	mbedtls_x509_crt ca;
	mbedtls_ssl_config conf;
	mbedtls_ssl_context ssl;
};

struct stream {
	int fd;
	struct net_limits lim;
	char peer[URL_HOST_MAX + 8]; /* host:port, for messages */
	/* What the last socket call below TLS ran into: mbedTLS only passes
	 * back its own error codes. */
	int io_errno;
	bool timed_out;
	bool got_bytes;
	bool plain_http; /* a TLS peer's first bytes read "HTTP/" */
	struct tls *tls; /* NULL for http:// */
};

void net_fail_set(struct net_fail *f, enum http_failure kind, const char *fmt, ...)
{
	va_list ap;

	if (f->kind != HTTP_OK)
		return;
	f->kind = kind;
	if (!f->len)
		return;
	va_start(ap, fmt);
	vsnprintf(f->msg, f->len, fmt, ap);
	va_end(ap);
}

/* Waits for events on fd for at most limit_ms, less if the deadline comes
 * first: 1 when ready (errors count: the next call reports them), 0 when
 * the time ran out, -1 on a poll error. */
static int wait_fd(int fd, short events, int limit_ms, uint64_t deadline_ns)
{
	uint64_t end = clock_now_ns() + (uint64_t)limit_ms * 1000000u;

	if (deadline_ns && deadline_ns < end)
		end = deadline_ns;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		uint64_t now = clock_now_ns();
		int n;

		if (now >= end)
			return 0;
		n = poll(&p, 1, (int)((end - now + 999999) / 1000000));
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

static ssize_t io_fail(struct stream *s, int err, bool timed_out)
{
	s->io_errno = err;
	s->timed_out = timed_out;
	return -1;
}

/* Sends some of buf: the count, or -1 with the cause in s. */
static ssize_t raw_send(struct stream *s, const void *buf, size_t len)
{
	for (;;) {
		ssize_t n = send(s->fd, buf, len, MSG_NOSIGNAL);
		int rc;

		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return io_fail(s, errno, false);
		rc = wait_fd(s->fd, POLLOUT, s->lim.io_ms, s->lim.deadline_ns);
		if (rc <= 0)
			return io_fail(s, rc ? errno : ETIMEDOUT, rc == 0);
	}
}

/* Receives some bytes: the count, 0 at end of stream, or -1 with the cause
 * in s. */
static ssize_t raw_recv(struct stream *s, void *buf, size_t len)
{
	for (;;) {
		ssize_t n = recv(s->fd, buf, len, 0);
		int rc;

		if (n >= 0) {
			if (s->tls && !s->got_bytes && n >= 5 && memcmp(buf, "HTTP/", 5) == 0)
				s->plain_http = true;
			s->got_bytes = s->got_bytes || n > 0;
			return n;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return io_fail(s, errno, false);
		rc = wait_fd(s->fd, POLLIN, s->lim.io_ms, s->lim.deadline_ns);
		if (rc <= 0)
			return io_fail(s, rc ? errno : ETIMEDOUT, rc == 0);
	}
}

static bool past_deadline(const struct net_limits *lim)
{
	return lim->deadline_ns && clock_now_ns() >= lim->deadline_ns;
}

/* Turns the socket-level cause in s into the request's failure. */
static void fail_io(struct stream *s, struct net_fail *f, const char *what)
{
	if (s->timed_out && past_deadline(&s->lim))
		net_fail_set(f, HTTP_FAIL_TIMEOUT, "%s %s: timed out (request time limit reached)",
			     what, s->peer);
	else if (s->timed_out)
		net_fail_set(f, HTTP_FAIL_TIMEOUT, "%s %s: timed out (nothing for %d ms)", what,
			     s->peer, s->lim.io_ms);
	else
		net_fail_set(f, s->io_errno == ETIMEDOUT ? HTTP_FAIL_TIMEOUT : HTTP_FAIL_NETWORK,
			     "%s %s: %s", what, s->peer, strerror(s->io_errno));
}

/* One address: the connected socket, or -1 with the errno in *err. */
static int connect_addr(const struct addrinfo *ai, const struct net_limits *lim, int *err)
{
	int fd, rc, one = 1, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	/* The head and the body go out in separate writes; Nagle would hold
	 * the body back for the head's delayed ACK. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	*err = errno;
	if (*err != EINPROGRESS && *err != EINTR)
		goto fail;
	rc = wait_fd(fd, POLLOUT, lim->connect_ms, lim->deadline_ns);
	*err = rc == 0 ? ETIMEDOUT : errno;
	if (rc <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		goto fail;
	*err = soerr;
	if (soerr == 0)
		return fd;
fail:
	close(fd);
	return -1;
}

static int tcp_connect(struct stream *s, const struct url *u, struct net_fail *f)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char port[8], addr[NI_MAXHOST] = "?";
	int rc, err = 0, tried = 0;

	snprintf(port, sizeof(port), "%u", u->port);
	rc = getaddrinfo(u->host, port, &hints, &res);
	if (rc) {
		net_fail_set(f, HTTP_FAIL_DNS, "resolving %s: %s", u->host,
			     rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	/* In the resolver's order (RFC 6724), IPv4 and IPv6 alike. */
	for (ai = res; ai && s->fd < 0 && !past_deadline(&s->lim); ai = ai->ai_next) {
		tried++;
		s->fd = connect_addr(ai, &s->lim, &err);
		if (s->fd < 0)
			getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, sizeof(addr), NULL, 0,
				    NI_NUMERICHOST);
	}
	freeaddrinfo(res);
	if (s->fd >= 0)
		return 0;
	if (!tried)
		err = ETIMEDOUT;
	if (tried > 1)
		net_fail_set(f, err == ETIMEDOUT ? HTTP_FAIL_TIMEOUT : HTTP_FAIL_CONNECT,
			     "connecting to %s: %s (%d addresses tried, the last %s)", s->peer,
			     strerror(err), tried, addr);
	else
		net_fail_set(f, err == ETIMEDOUT ? HTTP_FAIL_TIMEOUT : HTTP_FAIL_CONNECT,
			     "connecting to %s (%s): %s", s->peer, addr, strerror(err));
	return -1;
}

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
	for (i = 0; i < sizeof(table) / sizeof(table[0]) && n < len; i++) {
		if (!(flags & table[i].flags))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", table[i].words);
		rest &= ~table[i].flags;
	}
	if (n < len && (rest || !flags))
		snprintf(buf + n, len - n, "%sverify flags 0x%x", n ? ", " : "", (unsigned)rest);
}

static int bio_send(void *ctx, const unsigned char *buf, size_t len)
{
	ssize_t n = raw_send(ctx, buf, len < 65536 ? len : 65536);

	return n < 0 ? MBEDTLS_ERR_NET_SEND_FAILED : (int)n;
}

static int bio_recv(void *ctx, unsigned char *buf, size_t len)
{
	ssize_t n = raw_recv(ctx, buf, len < 65536 ? len : 65536);

	return n < 0 ? MBEDTLS_ERR_NET_RECV_FAILED : (int)n;
}

static int tls_local_fail(struct net_fail *f, const char *what, int ret)
{
	char msg[128];

	mbedtls_strerror(ret, msg, sizeof(msg));
	net_fail_set(f, HTTP_FAIL_LOCAL, "%s: %s", what, msg);
	return -1;
}

static int load_ca(struct tls *t, const char *ca_file, struct net_fail *f)
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
static int tls_prepare(struct stream *s, const char *host, const char *ca_file, struct net_fail *f)
{
	static const char pers[] = "ebsbench http";
	struct tls *t = calloc(1, sizeof(*t));
	int ret;

	if (!t) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return -1;
	}
	s->tls = t;
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
	mbedtls_ssl_set_bio(&t->ssl, s, bio_send, bio_recv, NULL);
	return 0;
}

/* An mbedTLS error: the socket's cause if there was one, else its words. */
static void fail_tls(struct stream *s, int ret, enum http_failure kind, const char *what,
		     struct net_fail *f)
{
	char msg[128];

	if (s->io_errno) {
		fail_io(s, f, what);
		return;
	}
	mbedtls_strerror(ret, msg, sizeof(msg));
	net_fail_set(f, kind, "%s %s: %s", what, s->peer, msg);
}

static int tls_handshake(struct stream *s, struct net_fail *f)
{
	int ret;

	do
		ret = mbedtls_ssl_handshake(&s->tls->ssl);
	while (ret == MBEDTLS_ERR_SSL_WANT_READ || ret == MBEDTLS_ERR_SSL_WANT_WRITE);
	if (ret == 0)
		return 0;
	if (ret == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED) {
		char words[200];

		tls_verify_words(mbedtls_ssl_get_verify_result(&s->tls->ssl), words, sizeof(words));
		net_fail_set(f, HTTP_FAIL_TLS_VERIFY,
			     "TLS with %s: server certificate rejected: %s", s->peer, words);
	} else if (s->plain_http) {
		net_fail_set(f, HTTP_FAIL_TLS,
			     "TLS handshake with %s failed: the server answered in plain HTTP",
			     s->peer);
	} else if (ret == MBEDTLS_ERR_SSL_CONN_EOF && !s->io_errno) {
		net_fail_set(f, HTTP_FAIL_TLS,
			     "TLS handshake with %s failed: the server closed the connection",
			     s->peer);
	} else {
		fail_tls(s, ret, HTTP_FAIL_TLS, "TLS handshake with", f);
	}
	return -1;
}

struct stream *stream_open(const struct url *u, const struct net_limits *lim, const char *ca_file,
			   struct net_fail *f)
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s) {
		net_fail_set(f, HTTP_FAIL_LOCAL, "out of memory");
		return NULL;
	}
	s->fd = -1;
	s->lim = *lim;
	url_host_header(u, s->peer, sizeof(s->peer));
	if (u->port == (u->https ? 443u : 80u)) /* always name the port */
		snprintf(s->peer + strlen(s->peer), sizeof(s->peer) - strlen(s->peer), ":%u",
			 u->port);
	if ((u->https && tls_prepare(s, u->host, ca_file, f)) || tcp_connect(s, u, f) ||
	    (u->https && tls_handshake(s, f))) {
		stream_close(s);
		return NULL;
	}
	return s;
}

int stream_write(struct stream *s, const void *buf, size_t len, struct net_fail *f)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n;

		if (!s->tls) {
			n = raw_send(s, p, len);
			if (n < 0)
				fail_io(s, f, "sending to");
		} else {
			do
				n = mbedtls_ssl_write(&s->tls->ssl, p, len);
			while (n == MBEDTLS_ERR_SSL_WANT_READ || n == MBEDTLS_ERR_SSL_WANT_WRITE);
			if (n < 0)
				fail_tls(s, (int)n, HTTP_FAIL_NETWORK, "sending to", f);
		}
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t stream_read(struct stream *s, void *buf, size_t len, struct net_fail *f)
{
	ssize_t n;

	if (!s->tls) {
		n = raw_recv(s, buf, len);
		if (n < 0)
			fail_io(s, f, "reading from");
		return n;
	}
	do
		n = mbedtls_ssl_read(&s->tls->ssl, buf, len);
	while (n == MBEDTLS_ERR_SSL_WANT_READ || n == MBEDTLS_ERR_SSL_WANT_WRITE);
	/* Without close_notify too: HTTP framing catches a cut-off body. */
	if (n == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY ||
	    (n == MBEDTLS_ERR_SSL_CONN_EOF && !s->io_errno))
		return 0;
	if (n < 0)
		fail_tls(s, (int)n, HTTP_FAIL_NETWORK, "reading from", f);
	return n;
}

void stream_close(struct stream *s)
{
	struct tls *t;

	if (!s)
		return;
	t = s->tls;
	if (t) {
		mbedtls_ssl_free(&t->ssl);
		mbedtls_ssl_config_free(&t->conf);
		mbedtls_x509_crt_free(&t->ca);
		mbedtls_ctr_drbg_free(&t->drbg);
		mbedtls_entropy_free(&t->entropy);
		free(t);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
