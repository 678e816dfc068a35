/*
 * The Neovim limit client: msgpack-RPC on fds 0 and 1, in either topology
 * (limit.h has the rest). PROTOCOL names it: "jobstart", a child of
 * jobstart(..., {'rpc': v:true}) as a Vigor plugin is, or "embed", with
 * `nvim --embed` on the other end (vigor-bench connects the two). Both
 * send what a Vigor plugin sends:
 *
 *   [0, ID, "nvim_call_function", ["vigor_benchmark#discard", [DATA]]]  ->  [1, ID, nil, 0]
 *   [0, ID, "nvim_call_atomic", [[["nvim_call_function", [fn, [DATA]]], ...]]]
 *     ->  [1, ID, nil, [[0, ...], nil]]
 */
#include "limit.h"

static size_t be(const unsigned char *p, int n)
{
	size_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Returns the end of the object at p[i], or 0 if p ends first. */
static size_t skip(const unsigned char *p, size_t n, size_t i)
{
	if (i >= n)
		return 0;
	unsigned c = p[i++];
	size_t len = 0, items = 0;
	if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
		return i;
	if ((c & 0xe0) == 0xa0) {
		len = c & 0x1f;
		goto bytes;
	}
	if ((c & 0xf0) == 0x90) {
		items = c & 0x0f;
		goto list;
	}
	if ((c & 0xf0) == 0x80) {
		items = 2 * (c & 0x0f);
		goto list;
	}
	/* The size of the length field, and of what follows it. */
	int lf = 0, fixed = 0, ext = 0, pairs = 0;
	switch (c) {
	case 0xcc: case 0xd0: fixed = 1; break;
	case 0xcd: case 0xd1: fixed = 2; break;
	case 0xce: case 0xd2: case 0xca: fixed = 4; break;
	case 0xcf: case 0xd3: case 0xcb: fixed = 8; break;
	case 0xd4: fixed = 2; break;
	case 0xd5: fixed = 3; break;
	case 0xd6: fixed = 5; break;
	case 0xd7: fixed = 9; break;
	case 0xd8: fixed = 17; break;
	case 0xc4: case 0xd9: lf = 1; break;
	case 0xc5: case 0xda: lf = 2; break;
	case 0xc6: case 0xdb: lf = 4; break;
	case 0xc7: lf = 1; ext = 1; break;
	case 0xc8: lf = 2; ext = 1; break;
	case 0xc9: lf = 4; ext = 1; break;
	case 0xdc: lf = 2; items = 1; break;
	case 0xdd: lf = 4; items = 1; break;
	case 0xde: lf = 2; pairs = 1; break;
	case 0xdf: lf = 4; pairs = 1; break;
	default: die("not msgpack: byte 0x%02x", c);
	}
	if (fixed)
		return i + fixed <= n ? i + fixed : 0;
	if (i + lf > n)
		return 0;
	len = be(p + i, lf);
	i += lf;
	if (items || pairs) {
		items = pairs ? 2 * len : len;
		goto list;
	}
	len += ext;
bytes:
	return i + len <= n ? i + len : 0;
list:
	while (items-- > 0) {
		i = skip(p, n, i);
		if (!i)
			return 0;
	}
	return i;
}

static size_t frame(const char *p, size_t n, size_t *lead)
{
	(void)lead;
	return skip((const unsigned char *)p, n, 0);
}

/* ids count up from 1, in the shortest form, as Neovim writes them. */
static void encode_id(struct idtext *t, long id)
{
	unsigned char *p = (unsigned char *)t->p;
	if (id < 128) {
		p[0] = (unsigned char)id;
		t->len = 1;
	} else if (id < 256) {
		p[0] = 0xcc, p[1] = (unsigned char)id;
		t->len = 2;
	} else if (id < 65536) {
		p[0] = 0xcd, p[1] = (unsigned char)(id >> 8), p[2] = (unsigned char)id;
		t->len = 3;
	} else {
		p[0] = 0xce, p[1] = (unsigned char)(id >> 24), p[2] = (unsigned char)(id >> 16);
		p[3] = (unsigned char)(id >> 8), p[4] = (unsigned char)id;
		t->len = 5;
	}
}

static void put_str(struct buf *b, const char *s)
{
	size_t n = strlen(s);
	if (n < 32) {
		putc_(b, 0xa0 | (int)n);
	} else if (n < 256) {
		putc_(b, 0xd9);
		putc_(b, (int)n);
	} else if (n < 65536) {
		putc_(b, 0xda);
		putc_(b, (int)(n >> 8));
		putc_(b, (int)(n & 0xff));
	} else {
		putc_(b, 0xdb);
		for (int s = 24; s >= 0; s -= 8)
			putc_(b, (int)((n >> s) & 0xff));
	}
	put(b, s, n);
}

static void put_array(struct buf *b, size_t n)
{
	if (n < 16) {
		putc_(b, 0x90 | (int)n);
	} else if (n < 65536) {
		putc_(b, 0xdc);
		putc_(b, (int)(n >> 8));
		putc_(b, (int)(n & 0xff));
	} else {
		putc_(b, 0xdd);
		for (int s = 24; s >= 0; s -= 8)
			putc_(b, (int)((n >> s) & 0xff));
	}
}

static void setup(struct protocol *p, const char *name, const char *data, int count)
{
	if (strcmp(name, "jobstart") != 0 && strcmp(name, "embed") != 0)
		die("unknown protocol %s (want jobstart or embed)", name);
	/* ["vigor_benchmark#discard", [DATA]] */
	struct buf args = {0};
	put_array(&args, 2);
	put_str(&args, DISCARD);
	put_array(&args, 1);
	put_str(&args, data);

	put_array(&p->call.before, 4);
	putc_(&p->call.before, 0);
	put_str(&p->call.after, "nvim_call_function");
	put(&p->call.after, args.p, args.len);
	put_array(&p->call_reply.before, 4);
	putc_(&p->call_reply.before, 1);
	putc_(&p->call_reply.after, 0xc0);
	putc_(&p->call_reply.after, 0);

	put_array(&p->batch.before, 4);
	putc_(&p->batch.before, 0);
	put_str(&p->batch.after, "nvim_call_atomic");
	put_array(&p->batch.after, 1);
	put_array(&p->batch.after, (size_t)count);
	for (int i = 0; i < count; i++) {
		put_array(&p->batch.after, 2);
		put_str(&p->batch.after, "nvim_call_function");
		put(&p->batch.after, args.p, args.len);
	}
	put_array(&p->batch_reply.before, 4);
	putc_(&p->batch_reply.before, 1);
	putc_(&p->batch_reply.after, 0xc0);
	put_array(&p->batch_reply.after, 2);
	put_array(&p->batch_reply.after, (size_t)count);
	for (int i = 0; i < count; i++)
		putc_(&p->batch_reply.after, 0);
	putc_(&p->batch_reply.after, 0xc0);

	/* [2, "nvim_command", ["qa!"]] */
	put_array(&p->quit.before, 3);
	putc_(&p->quit.before, 2);
	put_str(&p->quit.before, "nvim_command");
	put_array(&p->quit.before, 1);
	put_str(&p->quit.before, "qa!");
}
