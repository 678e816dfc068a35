/*
 * The Vim limit clients: a job with {'mode': 'json'} on Vim's channel
 * (limit.h has the rest). PROTOCOL is
 *
 *   command   Vim's channel command "call":
 *               ["call", "vigor_benchmark#discard", [DATA], -ID]  ->  [-ID, 0]
 *             and for the batch the Vim9 loop g:VigorBenchBatch(calls):
 *               ["call", "VigorBenchBatch", [[[fn, [DATA]], ...]], -ID]  ->  [-ID, [0, ...]]
 *   callback  Vigor's own protocol, to the runtime's channel callback
 *             (vigor#_internal#api#vim#on_call), as a Vigor plugin in
 *             Ex mode sends it, with the runtime's batch helper:
 *               [0, [-ID, "vigor_benchmark#discard", [DATA]]]  ->  [-ID, [0, null]]
 *               [0, [-ID, "vigor#_internal#api#vim#batch", [[[fn, [DATA]], ...]]]]
 *                 ->  [-ID, [[[0, ...], null], null]]
 *
 * As Vigor's writer does, it makes the pipe to Vim 1 MiB long, so that a
 * batch reaches Vim whole (Vim parses a JSON message again from its start
 * each time more of it arrives), and, as Vigor's codec does
 * (internal/codec/vimjson), it sends a batch longer than CHUNK_THRESHOLD as
 * the runtime's chunks: calls of vigor#_internal#api#vim#chunk(KEY, TEXT),
 * each at most CHUNK_SIZE bytes, the pieces of the JSON text of [method,
 * params], then the batch's call of vigor#_internal#api#vim#chunked(KEY, N)
 * with its id:
 *   ["call", "vigor#_internal#api#vim#chunk", [KEY, "[\"...\",[...]]"]]  (N of them)
 *   [0, [-ID, "vigor#_internal#api#vim#chunked", [KEY, N]]]          (callback)
 *   ["call", "vigor#_internal#api#vim#chunked", [KEY, N], -ID]       (command)
 * Those frames are written one at a time, each once the pipe has room for
 * it (limit.h, send_framed), as Vigor's writer writes them.
 * The key is the same for every batch: the runtime forgets a key's
 * chunks once it has run them. The chunks name the command's batch loop
 * g:VigorBenchBatch: the runtime's def calls it by that name.
 */
#include "limit.h"

/* As internal/codec/vimjson's ChunkThreshold and ChunkSize. */
#define CHUNK_THRESHOLD (512 << 10)
#define CHUNK_SIZE (256 << 10)
#define CHUNK_KEY "vigor-bench-limit:c1"

/*
 * chunk writes body (the JSON text of [method, params]) to b as chunk
 * calls of at most CHUNK_SIZE bytes, and returns how many it wrote.
 */
static int chunk(struct buf *b, const struct buf *body)
{
	const char *head = "[\"call\",\"vigor#_internal#api#vim#chunk\",[\"" CHUNK_KEY "\",\"";
	const char *tail = "\"]]\n";
	size_t room = CHUNK_SIZE - strlen(head) - strlen(tail);
	int n = 0;
	for (size_t i = 0; i < body->len;) {
		n++;
		puts_(b, head);
		for (size_t size = 0; i < body->len; i++) {
			char c = body->p[i];
			int esc = c == '"' || c == '\\';
			if (size + 1 + (size_t)esc > room)
				break;
			if (esc)
				putc_(b, '\\');
			putc_(b, c);
			size += 1 + (size_t)esc;
		}
		puts_(b, tail);
	}
	return n;
}

/* A JSON message ends where its outer list closes. */
static size_t frame(const char *p, size_t n, size_t *lead)
{
	size_t i = 0;
	while (i < n && (p[i] == '\n' || p[i] == '\r' || p[i] == ' '))
		i++;
	if (i > 0) {
		*lead = i;
		return 0;
	}
	int depth = 0, str = 0;
	for (; i < n; i++) {
		char c = p[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = 0;
		} else if (c == '"') {
			str = 1;
		} else if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (--depth == 0)
				return i + 1;
		}
	}
	return 0;
}

static void encode_id(struct idtext *t, long id)
{
	t->len = (size_t)snprintf(t->p, sizeof t->p, "%ld", id);
}

static void setup(struct protocol *p, const char *name, const char *data, int count)
{
	int callback;
	if (strcmp(name, "command") == 0)
		callback = 0;
	else if (strcmp(name, "callback") == 0)
		callback = 1;
	else
		die("unknown protocol %s (want command or callback)", name);
	fcntl(1, F_SETPIPE_SZ, 1 << 20);
	int size = fcntl(1, F_GETPIPE_SZ);

	struct buf call = {0}, calls = {0};
	puts_(&call, "\"" DISCARD "\",[\"");
	puts_(&call, data);
	puts_(&call, "\"]");
	putc_(&calls, '[');
	for (int i = 0; i < count; i++) {
		if (i)
			putc_(&calls, ',');
		putc_(&calls, '[');
		put(&calls, call.p, call.len);
		putc_(&calls, ']');
	}
	putc_(&calls, ']');
	struct buf zeros = {0};
	for (int i = 0; i < count; i++)
		puts_(&zeros, i ? ",0" : "0");

	if (callback) {
		puts_(&p->call.before, "[0,[-");
		puts_(&p->call.after, ",");
		put(&p->call.after, call.p, call.len);
		puts_(&p->call.after, "]]\n");
		puts_(&p->call_reply.before, "[-");
		puts_(&p->call_reply.after, ",[0,null]]");
		puts_(&p->batch.before, "[0,[-");
		puts_(&p->batch.after, ",\"vigor#_internal#api#vim#batch\",[");
		put(&p->batch.after, calls.p, calls.len);
		puts_(&p->batch.after, "]]]\n");
		puts_(&p->batch_reply.before, "[-");
		puts_(&p->batch_reply.after, ",[[[");
		put(&p->batch_reply.after, zeros.p, zeros.len);
		puts_(&p->batch_reply.after, "],null],null]]");
	} else {
		puts_(&p->call.before, "[\"call\",");
		put(&p->call.before, call.p, call.len);
		puts_(&p->call.before, ",-");
		puts_(&p->call.after, "]\n");
		puts_(&p->call_reply.before, "[-");
		puts_(&p->call_reply.after, ",0]");
		puts_(&p->batch.before, "[\"call\",\"VigorBenchBatch\",[");
		put(&p->batch.before, calls.p, calls.len);
		puts_(&p->batch.before, "],-");
		puts_(&p->batch.after, "]\n");
		puts_(&p->batch_reply.before, "[-");
		puts_(&p->batch_reply.after, ",[");
		put(&p->batch_reply.after, zeros.p, zeros.len);
		puts_(&p->batch_reply.after, "]]");
	}
	if (p->batch.before.len + p->batch.after.len > CHUNK_THRESHOLD) {
		struct buf body = {0}, chunks = {0};
		puts_(&body, callback ? "[\"vigor#_internal#api#vim#batch\",[" : "[\"g:VigorBenchBatch\",[");
		put(&body, calls.p, calls.len);
		puts_(&body, "]]");
		int n = chunk(&chunks, &body);
		if (size > 0) {
			pipe_size = (size_t)size;
			framed.cap = chunks.len + 256;
			framed.p = malloc(framed.cap);
			if (!framed.p)
				die("out of memory");
		}
		char args[64];
		snprintf(args, sizeof args, "[\"" CHUNK_KEY "\",%d]", n);
		p->batch.before = chunks;
		p->batch.after = (struct buf){0};
		if (callback) {
			puts_(&p->batch.before, "[0,[-");
			puts_(&p->batch.after, ",\"vigor#_internal#api#vim#chunked\",");
			puts_(&p->batch.after, args);
			puts_(&p->batch.after, "]]\n");
		} else {
			puts_(&p->batch.before, "[\"call\",\"vigor#_internal#api#vim#chunked\",");
			puts_(&p->batch.before, args);
			puts_(&p->batch.before, ",-");
			puts_(&p->batch.after, "]\n");
		}
	}
	puts_(&p->quit.before, "[\"ex\",\"qa!\"]\n");
}
