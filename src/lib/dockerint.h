/* Internals of padpack docker shared by its files: Dockerfile pieces
 * (dockerfile.c), and what the contexts and scripts agree on
 * (docker-names.c). Calls go one way, lowest first: docker-names.c;
 * dockerfile.c and docker-scripts.c; docker-context.c. */
#ifndef PP_DOCKERINT_H
#define PP_DOCKERINT_H

#include "docker-names.h"

/* Where the development image keeps the spec it was made from. */
#define PP_DEV_SPEC_DIR "/usr/local/share/padpack/spec"

/* ---- dockerfile.c ---- */

/* "text" as JSON writes it; with dollar, '$' is escaped as well (for the
 * instructions a builder expands variables in). */
void pp_df_quote(struct strbuf *out, const char *s, int dollar);
/* INSTR ["word", ...] */
void pp_df_exec(struct strbuf *out, const char *instr,
		const struct pp_strlist *words);
/* RUN [FLAGS] cmd && cmd ..., a command a line. */
void pp_df_run(struct strbuf *out, const char *flags,
	       const struct pp_strlist *cmds);
/* Appends shell-quoted words, wrapped with backslash-newlines. */
void pp_df_words(struct strbuf *cmd, const struct pp_strlist *words);
/* The LABEL instruction: OCI annotations, variant and axis labels (v may
 * be NULL), the spec's own. */
void pp_df_labels(struct strbuf *out, const struct pp_spec *spec,
		  const struct pp_docker_opts *o, const char *title,
		  const char *base, const struct pp_variant *v);

const char *pp_prod_base(const struct pp_spec *spec,
			 const struct pp_variant *v);
const char *pp_image_user(const struct pp_spec *spec);

/* ---- docker-names.c ---- */

/* Where the source is mounted in containers (image.mount, /paddle). */
const char *pp_mount(const struct pp_spec *spec);
/* The last component of path (trailing slashes stay on it). */
const char *pp_docker_base_name(const char *path);
/* The context path of an app's i-th copy "SRC:DEST": copyN/BASENAME. */
void pp_app_copy_name(struct strbuf *out, size_t i, const char *copy);

#endif
