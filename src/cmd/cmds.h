/* The subcommands of padpack, one file each, listed in padpack.c. */
#ifndef PP_CMDS_H
#define PP_CMDS_H

#include <stdint.h>

#include "../lib/error.h"

struct pp_extract_opts;
struct pp_spec;
struct pp_strlist;

struct pp_cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct pp_err *err);
	const char *summary; /* one line for padpack --help */
	const char *usage;   /* the full text of padpack CMD --help */
};

extern const struct pp_cmd cmd_pack, cmd_info, cmd_contents, cmd_field,
	cmd_extract, cmd_control, cmd_compare_versions;
extern const struct pp_cmd cmd_build;
extern const struct pp_cmd cmd_split;
extern const struct pp_cmd cmd_repo;
extern const struct pp_cmd cmd_key, cmd_sign, cmd_verify, cmd_clearsign,
	cmd_detach_sign, cmd_verify_sig;
extern const struct pp_cmd cmd_isa;
extern const struct pp_cmd cmd_docker;

/* Helpers shared by the commands (cmd/common.c). */
int pp_usage_error(struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The build time: $SOURCE_DATE_EPOCH when set, else now. */
int pp_source_date(long long *out, struct pp_err *err);
int pp_parse_int(const char *s, long min, long max, long *out);
/* A size in bytes: a number, a fraction allowed ("1.5GiB"), with an
 * optional binary unit (K, KiB, M, MiB, G, GiB, T, TiB; k and B too);
 * -1 when it is none or past 2^62 bytes. */
int pp_parse_size(const char *s, uint64_t *out);
/* Removes every argument equal to flag (e.g. "--json") from argv, for
 * the commands that take their arguments as dpkg-deb does, without
 * getopt; returns whether there was one. */
int pp_take_flag(int *argc, char **argv, const char *flag);
/* Loads the spec at path and, in *selected (newly allocated, one flag a
 * variant), the variants the --variant patterns choose (all without
 * any). On error nothing is left to release. */
int pp_load_spec_variants(const char *path, const struct pp_strlist *variants,
			  struct pp_spec *spec, unsigned char **selected,
			  struct pp_err *err);

/* The options of extract and control (cmd/extract.c): the index of the
 * first argument, or -1. *max_set says --max-size was given. */
int pp_extract_parse(int argc, char **argv, struct pp_extract_opts *o,
		     int *max_set, struct pp_err *err);

#endif
