/* What padpack's commands do with a .deb (info, contents, field, control,
 * extract, verify), run on one file by the .deb and tar fuzz
 * targets. */
#ifndef PP_FUZZ_DEB_H
#define PP_FUZZ_DEB_H

#include <time.h>

#include "../../src/lib/deb.h"
#include "../../src/lib/debsig.h"
#include "fuzz.h"

/* The data of a sparse entry may declare terabytes of holes; a command
 * reading it stops at a limit, and so does this. */
#define FUZZ_DATA_MAX (16u << 20)

static int fuzz_entry(const struct pp_tar_entry *e, void *ctx,
		      struct pp_err *err)
{
	(void)err;
	*(size_t *)ctx += e->path ? strlen(e->path) : 0;
	return 0;
}

static int fuzz_data(const void *buf, size_t len, void *ctx,
		     struct pp_err *err)
{
	size_t *total = ctx;

	(void)buf;
	*total += len;
	if (*total > FUZZ_DATA_MAX)
		return pp_err_set(err, PP_EXIT_INPUT, "too much data");
	return 0;
}

static void fuzz_tap(const void *buf, size_t len, void *ctx)
{
	(void)buf;
	*(size_t *)ctx += len;
}

/* info and field: the control members, the control file parsed. */
static void fuzz_deb_info(struct pp_deb *deb)
{
	const struct pp_ctrl_member *control;
	struct pp_ctrl_members cm;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_deb_read_control(deb, &cm, &err) == 0) {
		control = pp_ctrl_members_find(&cm, "control");
		if (control && pp_control_parse(control->data.buf,
						control->data.len, "control",
						&st, &err) == 0)
			pp_stanza_release(&st);
		pp_ctrl_members_release(&cm);
	}
	pp_err_release(&err);
}

/* contents, and the walk verify makes over data with a tap. */
static void fuzz_deb_walk(struct pp_deb *deb)
{
	size_t seen = 0, tapped = 0;
	struct pp_deb_tap tap = { fuzz_tap, &tapped, 0 };
	struct pp_err err;

	pp_err_init(&err);
	(void)pp_deb_list(deb, &deb->data, fuzz_entry, &seen, &err);
	pp_err_release(&err);
	pp_err_init(&err);
	(void)pp_deb_list(deb, &deb->control, fuzz_entry, &seen, &err);
	pp_err_release(&err);
	pp_err_init(&err);
	seen = 0;
	(void)pp_deb_walk(deb, &deb->data, &tap, fuzz_entry, fuzz_data, &seen,
			  &err);
	pp_err_release(&err);
}

/* control and extract: into a directory emptied again afterwards. */
static void fuzz_deb_extract(struct pp_deb *deb,
			     const struct pp_ar_member *m)
{
	/* set-id bits kept (their path exercised), at most 64 MiB written */
	struct pp_extract_opts opts = { 1, 0, 64 << 20, "the fuzz limit" };
	char dir[128];
	struct pp_err err;

	fuzz_path(dir, sizeof(dir), "out");
	pp_err_init(&err);
	(void)pp_deb_extract(deb, m, dir, &opts, &err);
	pp_err_release(&err);
	fuzz_rm_tree(dir);
}

/* The keyring of tests/fuzz/deb-key, a key committed for the fuzzers:
 * make-seeds.sh signs seed packages with it, so that verify gets past the
 * signature's key to the hashing and, for an input still as signed, to
 * comparing md5sums with the data. Inputs are verified as they are;
 * signing each one cost more than all the reading. FUZZ_DEB_KEY (a
 * directory) overrides the one the Makefile names. */
#ifndef FUZZ_KEY_DIR
#define FUZZ_KEY_DIR "tests/fuzz/deb-key"
#endif
static struct pp_pgp_keyring fuzz_keyring;

static inline void fuzz_deb_init(void)
{
	const char *dir = getenv("FUZZ_DEB_KEY");
	char path[4096];
	struct pp_err err;

	snprintf(path, sizeof(path), "%s/public.gpg", dir ? dir : FUZZ_KEY_DIR);
	pp_err_init(&err);
	pp_pgp_keyring_init(&fuzz_keyring);
	if (pp_pgp_keyring_load(&fuzz_keyring, path, &err) < 0) {
		fprintf(stderr, "fuzz: no keyring: %s\n", err.msg);
		abort();
	}
	pp_err_release(&err);
}

static void fuzz_deb_verify(const char *path)
{
	struct pp_debsig_report rep;
	struct pp_err err;

	pp_err_init(&err);
	(void)pp_debsig_verify(path, &fuzz_keyring, 1800000000, &rep, &err);
	pp_debsig_report_release(&rep);
	pp_err_release(&err);
}

/* extract_data: data.tar extracted too; verify: the package verified. */
static void fuzz_deb_file(const char *path, int extract_data, int verify)
{
	struct pp_stanza st;
	struct pp_deb deb;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_deb_open(&deb, path, &err) == 0) {
		fuzz_deb_info(&deb);
		fuzz_deb_walk(&deb);
		fuzz_deb_extract(&deb, &deb.control);
		if (extract_data)
			fuzz_deb_extract(&deb, &deb.data);
		pp_deb_close(&deb);
	}
	pp_err_release(&err);
	pp_err_init(&err);
	if (pp_deb_read_fields(path, &st, &err) == 0)
		pp_stanza_release(&st);
	pp_err_release(&err);
	if (verify)
		fuzz_deb_verify(path);
}

#endif
