// SPDX-License-Identifier: GPL-2.0
/*
 * kbuffer-check: decode the pages that the lrb_api KUnit case
 * read_page_hexdump_for_kbuffer printed into a kernel log with
 * libtraceevent's kbuffer (the parser trace-cmd uses) and compare every
 * event with what the case wrote: count, order, time stamp, payload length
 * and payload bytes. This proves that lrb pages are in the tracing
 * sub-buffer format.
 *
 * Usage: kbuffer-check LOG...   (exit 0: all match, 1: mismatch, 2: no dump
 * or unreadable input)
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/kbuffer.h>

#define MAX_EVENTS	4096
#define MAX_PAGES	64
#define MAX_PAGE_SIZE	65536

struct expect {
	unsigned int seq;
	unsigned long long ts;
	unsigned int len;
};

struct dump {
	unsigned long page_size;
	unsigned int long_size;
	unsigned int align;		/* payload layout: 4, or 8 (length word) */
	struct expect ev[MAX_EVENTS];
	unsigned int nr_ev;
	unsigned char *page[MAX_PAGES];
	unsigned int nr_pages;
	unsigned int declared_events;
	unsigned int declared_pages;
	bool ended;
};

/*
 * The size kbuffer reports for a payload of len bytes: rounded up to 4, or,
 * in the 8-byte layout (RB_FORCE_8BYTE_ALIGNMENT's), what is left of the
 * 8-byte multiple that holds the header, the length word and the payload
 */
static unsigned int event_size(const struct dump *d, unsigned int len)
{
	if (d->align == 8)
		return ((len + 8 + 7) & ~7U) - 8;
	return (len + 3) & ~3U;
}

/* The payload lrb_kunit_fill() writes for a sequence number */
static unsigned char payload_byte(unsigned int seq, unsigned int i)
{
	return (seq * 131 + i * 7 + 1) & 0xff;
}

static bool payload_ok(const unsigned char *p, unsigned int len,
		       unsigned int seq)
{
	unsigned int i = 0;
	uint32_t s = seq;

	if (len >= 4) {
		if (memcmp(p, &s, 4))
			return false;
		i = 4;
	}
	for (; i < len; i++)
		if (p[i] != payload_byte(seq, i))
			return false;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int parse_hex_line(struct dump *d, const char *s)
{
	unsigned int off, i;
	char hex[129];
	unsigned char *page;

	if (!d->nr_pages || sscanf(s, "%x %128s", &off, hex) != 2)
		return -1;
	page = d->page[d->nr_pages - 1];
	if (strlen(hex) % 2 || off + strlen(hex) / 2 > d->page_size)
		return -1;
	for (i = 0; i < strlen(hex) / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		page[off + i] = hi << 4 | lo;
	}
	return 0;
}

static int parse_line(struct dump *d, const char *line)
{
	const char *s;
	struct expect *e;

	s = strstr(line, "lrb-kbuffer-begin ");
	if (s) {
		memset(d, 0, sizeof(*d));
		d->align = 4;
		if (sscanf(s, "lrb-kbuffer-begin page_size=%lu long=%u align=%u",
			   &d->page_size, &d->long_size, &d->align) < 2 ||
		    d->page_size > MAX_PAGE_SIZE ||
		    (d->long_size != 4 && d->long_size != 8) ||
		    (d->align != 4 && d->align != 8))
			return -1;
		return 1;
	}
	if (!d->page_size)
		return 0;
	s = strstr(line, "lrb-kbuffer-event ");
	if (s) {
		if (d->nr_ev == MAX_EVENTS)
			return -1;
		e = &d->ev[d->nr_ev++];
		return sscanf(s, "lrb-kbuffer-event seq=%u ts=%llu len=%u",
			      &e->seq, &e->ts, &e->len) == 3 ? 0 : -1;
	}
	s = strstr(line, "lrb-kbuffer-page ");
	if (s) {
		if (d->nr_pages == MAX_PAGES)
			return -1;
		d->page[d->nr_pages] = calloc(1, d->page_size);
		if (!d->page[d->nr_pages])
			return -1;
		d->nr_pages++;
		return 0;
	}
	s = strstr(line, "lrb-kbuffer-hex ");
	if (s)
		return parse_hex_line(d, s + strlen("lrb-kbuffer-hex "));
	s = strstr(line, "lrb-kbuffer-end ");
	if (s) {
		d->ended = true;
		return sscanf(s, "lrb-kbuffer-end events=%u pages=%u",
			      &d->declared_events, &d->declared_pages) == 2 ?
			2 : -1;
	}
	return 0;
}

/* Decode every page with kbuffer and compare with the expected events */
static int check_dump(const char *name, struct dump *d)
{
	struct kbuffer *kbuf;
	unsigned int p, n = 0, bad = 0;
	unsigned long long ts;
	void *data;

	if (d->nr_ev != d->declared_events || d->nr_pages != d->declared_pages) {
		fprintf(stderr, "%s: dump incomplete: %u/%u events, %u/%u pages\n",
			name, d->nr_ev, d->declared_events, d->nr_pages,
			d->declared_pages);
		return 1;
	}
	kbuf = kbuffer_alloc(d->long_size == 8 ? KBUFFER_LSIZE_8 :
			     KBUFFER_LSIZE_4, KBUFFER_ENDIAN_LITTLE);
	if (!kbuf) {
		fprintf(stderr, "%s: kbuffer_alloc failed\n", name);
		return 2;
	}
	for (p = 0; p < d->nr_pages; p++) {
		if (kbuffer_load_subbuffer(kbuf, d->page[p])) {
			fprintf(stderr, "%s: page %u: kbuffer refused it\n",
				name, p);
			bad++;
			continue;
		}
		if (kbuffer_missed_events(kbuf)) {
			fprintf(stderr, "%s: page %u: kbuffer reports %d missed events\n",
				name, p, kbuffer_missed_events(kbuf));
			bad++;
		}
		for (data = kbuffer_read_event(kbuf, &ts); data && bad < 20;
		     data = kbuffer_next_event(kbuf, &ts)) {
			struct expect *e;
			int size = kbuffer_event_size(kbuf);

			if (n == d->nr_ev) {
				fprintf(stderr, "%s: page %u: event beyond the %u written\n",
					name, p, d->nr_ev);
				bad++;
				break;
			}
			e = &d->ev[n++];
			if (ts != e->ts) {
				fprintf(stderr, "%s: event %u: ts %llu, expected %llu\n",
					name, e->seq, ts, e->ts);
				bad++;
			}
			if ((unsigned int)size != event_size(d, e->len)) {
				fprintf(stderr, "%s: event %u: size %d, expected %u\n",
					name, e->seq, size, event_size(d, e->len));
				bad++;
			} else if (!payload_ok(data, e->len, e->seq)) {
				fprintf(stderr, "%s: event %u: payload differs\n",
					name, e->seq);
				bad++;
			}
		}
	}
	kbuffer_free(kbuf);
	if (bad >= 20)
		fprintf(stderr, "%s: stopped after %u mismatches\n", name, bad);
	else if (n != d->nr_ev) {
		fprintf(stderr, "%s: kbuffer decoded %u events, %u were written\n",
			name, n, d->nr_ev);
		bad++;
	}
	if (bad)
		return 1;
	printf("%s: libtraceevent kbuffer decoded %u events in %u pages, every time stamp and payload byte as written\n",
	       name, n, d->nr_pages);
	return 0;
}

static void free_dump(struct dump *d)
{
	unsigned int p;

	for (p = 0; p < d->nr_pages; p++)
		free(d->page[p]);
	d->nr_pages = 0;
}

static int check_log(const char *path)
{
	static struct dump d;
	char line[4096];
	int ret, found = 0, result = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	memset(&d, 0, sizeof(d));
	while (fgets(line, sizeof(line), f)) {
		ret = parse_line(&d, line);
		if (ret < 0) {
			fprintf(stderr, "%s: cannot parse: %s", path, line);
			result = 2;
			break;
		}
		if (ret == 2) {
			found++;
			ret = check_dump(path, &d);
			if (ret > result)
				result = ret;
			free_dump(&d);
			d.page_size = 0;
		}
	}
	fclose(f);
	free_dump(&d);
	if (!found && !result) {
		fprintf(stderr, "%s: no complete lrb-kbuffer dump (did lrb_api.read_page_hexdump_for_kbuffer run?)\n",
			path);
		return 2;
	}
	return result;
}

int main(int argc, char **argv)
{
	int i, ret, result = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s KERNEL_LOG...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		ret = check_log(argv[i]);
		if (ret > result)
			result = ret;
	}
	return result;
}
