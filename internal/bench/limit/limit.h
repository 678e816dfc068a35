/*
 * What the limit clients share (internal/bench/limit.go builds them).
 *
 * A limit client is the least a program can do to make the benchmark's
 * round trips: one thread, blocking read(2) and writev(2) on fds 0 and 1,
 * each message written once as three pieces (the constant part before the
 * request id, the id, the constant part after it), each reply framed and
 * compared with the one expected, byte for byte. Nothing is allocated
 * after the start.
 *
 * The workload is the vigor-benchmark plugin's: one call first (which
 * loads the autoload file), then for call and then for batch, `warmup`
 * untimed iterations and `n` timed ones, `count` calls of
 * vigor_benchmark#discard() with a String of `size` dots each.
 *
 * Usage: CLIENT PROTOCOL SIZE COUNT N WARMUP OUT
 * OUT gets {"call": [ms, ...], "batch": [ms, ...]}.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define DISCARD "vigor_benchmark#discard"

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("limit client: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A growable byte string, for building the constant parts at the start. */
struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void putc_(struct buf *b, int c)
{
	char ch = (char)c;
	put(b, &ch, 1);
}

/* A message or an expected reply: before, the id, after. */
struct msg {
	struct buf before, after;
};

/* The id's text, written by the protocol's encode_id into id[]. */
struct idtext {
	char p[16];
	size_t len;
};

/*
 * Messages longer than this that are made of several newline-ended frames
 * (Vim's chunked batch) are written a frame at a time, each once the pipe
 * has room for it, as Vigor's writer does (internal/codec/vimjson,
 * pipe_linux.go): Vim drops a frame that arrives in parts too far apart.
 * pipe_size is the pipe's length (0: never), framed the buffer they are
 * put together in, made at the start.
 */
#define FRAMED_MIN (512 << 10)
static size_t pipe_size;
static struct buf framed;

static void write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("write: %s", strerror(errno));
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Waits until the pipe holds no more than leaves n bytes free (with half
 * of it to spare), polling from 20 us up to 1 ms, as Vigor's writer. */
static void wait_room(size_t n)
{
	long delay = 20000;
	for (;;) {
		int queued = 0;
		if (ioctl(1, FIONREAD, &queued) != 0 || queued == 0 || (size_t)queued + n <= pipe_size / 2)
			return;
		struct timespec ts = {0, delay};
		nanosleep(&ts, NULL);
		delay = delay * 2 > 1000000 ? 1000000 : delay * 2;
	}
}

static void send_framed(const struct msg *m, const struct idtext *id)
{
	framed.len = 0;
	memcpy(framed.p, m->before.p, m->before.len);
	memcpy(framed.p + m->before.len, id->p, id->len);
	memcpy(framed.p + m->before.len + id->len, m->after.p, m->after.len);
	size_t len = m->before.len + id->len + m->after.len;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(framed.p + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (framed.p + i)) + 1 : len - i;
		if (n > 4096)
			wait_room(n);
		write_all(framed.p + i, n);
		i += n;
	}
}

static void send_msg(const struct msg *m, const struct idtext *id)
{
	if (pipe_size && m->before.len + m->after.len > FRAMED_MIN) {
		send_framed(m, id);
		return;
	}
	struct iovec iov[3] = {
		{m->before.p, m->before.len},
		{(void *)id->p, id->len},
		{m->after.p, m->after.len},
	};
	size_t left = m->before.len + id->len + m->after.len;
	int i = 0;
	while (left > 0) {
		ssize_t w = writev(1, iov + i, 3 - i);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("write: %s", strerror(errno));
		}
		left -= (size_t)w;
		while (i < 3 && (size_t)w >= iov[i].iov_len) {
			w -= (ssize_t)iov[i].iov_len;
			i++;
		}
		if (i < 3) {
			iov[i].iov_base = (char *)iov[i].iov_base + w;
			iov[i].iov_len -= (size_t)w;
		}
	}
}

/* What has been read and not yet consumed. */
static char *rbuf;
static size_t rlen, rcap;

/*
 * frame returns the length of the first whole message in p[0..n), 0 if
 * it has not all come yet; *lead is set to the length of what comes
 * before it that is no message, such as Vim's line breaks (the protocol's
 * file defines it).
 */
static size_t frame(const char *p, size_t n, size_t *lead);

static void consume(size_t m)
{
	memmove(rbuf, rbuf + m, rlen - m);
	rlen -= m;
}

/* Returns the length of the next message, which starts at rbuf. */
static size_t read_msg(void)
{
	for (;;) {
		size_t lead = 0, m = rlen ? frame(rbuf, rlen, &lead) : 0;
		if (lead)
			consume(lead);
		if (m)
			return m;
		if (lead)
			continue;
		if (rlen == rcap)
			die("a message longer than %zu bytes", rcap);
		ssize_t r = read(0, rbuf + rlen, rcap - rlen);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("read: %s", strerror(errno));
		}
		if (r == 0)
			die("the editor closed the channel");
		rlen += (size_t)r;
	}
}

static void encode_id(struct idtext *t, long id);

/* One round trip: sends m with id and checks that the reply is want. */
static void round_trip(const struct msg *m, const struct msg *want, long id)
{
	struct idtext t;
	encode_id(&t, id);
	send_msg(m, &t);
	size_t n = read_msg();
	size_t wn = want->before.len + t.len + want->after.len;
	if (n != wn || memcmp(rbuf, want->before.p, want->before.len) != 0 ||
	    memcmp(rbuf + want->before.len, t.p, t.len) != 0 ||
	    memcmp(rbuf + want->before.len + t.len, want->after.p, want->after.len) != 0) {
		fprintf(stderr, "limit client: unexpected reply to request %ld (%zu bytes): ", id, n);
		fwrite(rbuf, 1, n < 400 ? n : 400, stderr);
		fputc('\n', stderr);
		exit(1);
	}
	consume(n);
}

/* The protocol's file defines these from its messages. */
struct protocol {
	struct msg call, call_reply, batch, batch_reply, quit;
};
static void setup(struct protocol *p, const char *name, const char *data, int count);

static long next_id = 1;

static void run_calls(const struct protocol *p, int count)
{
	for (int i = 0; i < count; i++)
		round_trip(&p->call, &p->call_reply, next_id++);
}

static void run_batch(const struct protocol *p, int count)
{
	(void)count;
	round_trip(&p->batch, &p->batch_reply, next_id++);
}

static void print_samples(FILE *f, const double *s, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%.6f", i ? "," : "", s[i]);
}

int main(int argc, char **argv)
{
	if (argc != 7)
		die("usage: %s PROTOCOL SIZE COUNT N WARMUP OUT", argv[0]);
	int size = atoi(argv[2]), count = atoi(argv[3]), n = atoi(argv[4]), warmup = atoi(argv[5]);
	if (size < 0 || count <= 0 || n <= 0 || warmup < 0)
		die("bad SIZE COUNT N WARMUP");
	char *data = malloc((size_t)size + 1);
	double *calls = malloc(sizeof(double) * (size_t)n), *batches = malloc(sizeof(double) * (size_t)n);
	if (!data || !calls || !batches)
		die("out of memory");
	memset(data, '.', (size_t)size);
	data[size] = 0;
	struct protocol p;
	memset(&p, 0, sizeof p);
	setup(&p, argv[1], data, count);
	rcap = p.batch_reply.before.len + p.batch_reply.after.len + 4096;
	rbuf = malloc(rcap);
	if (!rbuf)
		die("out of memory");

	run_calls(&p, 1);
	void (*workloads[2])(const struct protocol *, int) = {run_calls, run_batch};
	double *samples[2] = {calls, batches};
	for (int w = 0; w < 2; w++) {
		for (int i = 0; i < warmup; i++)
			workloads[w](&p, count);
		for (int i = 0; i < n; i++) {
			double t0 = now_ms();
			workloads[w](&p, count);
			samples[w][i] = now_ms() - t0;
		}
	}

	FILE *f = fopen(argv[6], "w");
	if (!f)
		die("%s: %s", argv[6], strerror(errno));
	fputs("{\"call\":[", f);
	print_samples(f, calls, n);
	fputs("],\"batch\":[", f);
	print_samples(f, batches, n);
	fputs("]}\n", f);
	if (fclose(f) != 0)
		die("%s: %s", argv[6], strerror(errno));
	struct idtext none = {.len = 0};
	send_msg(&p.quit, &none);
	return 0;
}
