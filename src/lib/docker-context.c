/* padpack docker: build contexts on disk, each a directory emptied first,
 * holding the Dockerfile and what it copies or mounts. The top of the
 * docker files: it calls down into dockerfile.c, docker-scripts.c and
 * docker-names.c, and none of them calls back into it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "docker-context.h"
#include "docker-scripts.h"
#include "dockerint.h"
#include "fsutil.h"
#include "tree.h"
#include "xalloc.h"

static char *join(const char *dir, const char *name)
{
	char *p = xmalloc(strlen(dir) + strlen(name) + 2);

	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* An empty context directory (what a previous run left is removed). */
static int fresh_dir(const char *dir, struct pp_err *err)
{
	if (pp_remove_tree(dir, err) < 0)
		return -1;
	return pp_mkdir_p(dir, 0755, err);
}

static int write_text(const char *dir, const char *name,
		      const struct strbuf *text, mode_t mode,
		      struct pp_err *err)
{
	char *path = join(dir, name);
	int rc = pp_write_file(path, text->buf, text->len, mode, err);

	free(path);
	return rc;
}

/* A hard link where the file system allows (big packages), else a copy. */
static int link_or_copy(const char *src, const char *dst, mode_t mode,
			struct pp_err *err)
{
	if (link(src, dst) == 0)
		return 0;
	return pp_copy_file(src, dst, mode, err);
}

/* Copies the tree src to dst, leaving out top-level entry skip (may be
 * NULL) and any directory named build or .git. */
static int copy_tree(const char *src, const char *dst, const char *skip,
		     struct pp_err *err)
{
	struct pp_tree t = { 0 };
	int rc = pp_tree_walk(src, skip, &t, err);

	for (size_t i = 0; rc == 0 && i < t.nr; i++) {
		const struct pp_tree_entry *e = &t.e[i];
		const char *name = pp_docker_base_name(e->path);
		char *from = join(src, e->path), *to = join(dst, e->path);

		if (S_ISDIR(e->st.st_mode) && (!strcmp(name, ".git") ||
		    (*e->path && !strcmp(name, "build")))) {
			/* a prefix test skips what lies below */
			for (size_t len = strlen(e->path); i + 1 < t.nr &&
			     !strncmp(t.e[i + 1].path, e->path, len) &&
			     t.e[i + 1].path[len] == '/'; i++)
				;
		} else if (S_ISDIR(e->st.st_mode)) {
			rc = pp_mkdir_p(to, 0755, err);
		} else if (S_ISLNK(e->st.st_mode)) {
			if (symlink(e->link_target, to) < 0)
				rc = pp_err_errno(err, PP_EXIT_IO, "cannot make "
						  "the link '%s'", to);
		} else if (S_ISREG(e->st.st_mode)) {
			rc = pp_copy_file(from, to, e->st.st_mode & 07777, err);
		}
		free(from);
		free(to);
	}
	pp_tree_release(&t);
	return rc;
}

/* ---- production --------------------------------------------------------- */

static const char apt_conf[] =
	"// padpack: packages in images are configured non-interactively;\n"
	"// debconf's pre-configuration (which needs apt-utils anyway) would\n"
	"// only rewrite its whole cache into the layer.\n"
	"#clear DPkg::Pre-Install-Pkgs;\n";

static int prod_files(const struct pp_spec *spec,
		      const struct pp_prod_input *in, const char *dir,
		      struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT;
	char *debs = join(dir, "debs"), *to;
	int rc = pp_mkdir_p(debs, 0755, err);

	for (size_t i = 0; rc == 0 && i < in->debs.nr; i++) {
		to = join(debs, pp_docker_base_name(in->debs.items[i]));
		rc = link_or_copy(in->debs.items[i], to, 0644, err);
		free(to);
	}
	if (rc == 0 && in->sources) {
		to = join(dir, pp_docker_base_name(in->keyring_dest));
		rc = pp_copy_file(in->keyring, to, 0644, err);
		free(to);
		strbuf_addf(&name, "%s/%s.sources", dir, spec->name);
		if (rc == 0)
			rc = pp_copy_file(in->sources, name.buf, 0644, err);
	}
	free(debs);
	strbuf_release(&name);
	return rc;
}

int pp_docker_write_prod(const struct pp_spec *spec,
			 const struct pp_docker_opts *o,
			 const struct pp_prod_input *in, const char *dir,
			 struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, conf = STRBUF_INIT;
	int rc;

	if (!pp_prod_base(spec, in->variant))
		return pp_err_set(err, PP_EXIT_INPUT, "%s: variant %s has no "
				  "container.base among its values; set one, "
				  "e.g. base = \"debian:bookworm-slim\"",
				  spec->path, in->variant->name);
	pp_dockerfile_prod(spec, o, in, &text);
	strbuf_addstr(&conf, apt_conf);
	rc = fresh_dir(dir, err);
	if (rc == 0)
		rc = prod_files(spec, in, dir, err);
	if (rc == 0)
		rc = write_text(dir, "apt.conf", &conf, 0644, err);
	if (rc == 0)
		rc = write_text(dir, "Dockerfile", &text, 0644, err);
	strbuf_release(&text);
	strbuf_release(&conf);
	return rc;
}

/* ---- development -------------------------------------------------------- */

static const char sshd_conf[] =
	"# padpack: SSH into the development container with a key, never a\n"
	"# password (none is set).\n"
	"PasswordAuthentication no\n"
	"KbdInteractiveAuthentication no\n"
	"PermitRootLogin prohibit-password\n";

static const char sshd_script[] =
	"#!/bin/sh\n"
	"# Starts the SSH server of the development container for remote\n"
	"# terminals: keys only. Give the public keys as a file, e.g.\n"
	"#   -v ~/.ssh/id_ed25519.pub:/root/.ssh/authorized_keys:ro\n"
	"# or in SSH_AUTHORIZED_KEYS; sshd options follow (e.g. -p 2222).\n"
	"set -eu\n"
	"if [ -n \"${SSH_AUTHORIZED_KEYS:-}\" ]; then\n"
	"\tmkdir -p /root/.ssh\n"
	"\tchmod 0700 /root/.ssh\n"
	"\tprintf '%s\\n' \"$SSH_AUTHORIZED_KEYS\" >>/root/.ssh/authorized_keys\n"
	"fi\n"
	"# host keys of this container: none is baked into the image\n"
	"ssh-keygen -A >/dev/null\n"
	"mkdir -p /run/sshd\n"
	"exec /usr/sbin/sshd -D -e \"$@\"\n";

static int dev_sources(const struct pp_dev_input *in, const char *dir,
		       struct pp_err *err)
{
	char *pdir = join(dir, "padpack"), *sdir = join(dir, "spec");
	int rc = pp_mkdir_p(pdir, 0755, err);

	for (size_t i = 0; rc == 0 && i < in->padpack_files->nr; i++) {
		const char *name = in->padpack_files->items[i];
		char *from = join(in->padpack_src, name), *to = join(pdir, name);
		struct stat st;

		if (stat(from, &st) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "padpack's source "
					  "'%s'", from);
		else if (S_ISDIR(st.st_mode))
			rc = pp_mkdir_p(to, 0755, err) ||
			     copy_tree(from, to, NULL, err) ? -1 : 0;
		else
			rc = pp_copy_file(from, to, st.st_mode & 07777, err);
		free(from);
		free(to);
	}
	if (rc == 0)
		rc = pp_mkdir_p(sdir, 0755, err);
	if (rc == 0)
		rc = copy_tree(in->spec_dir, sdir, in->skip, err);
	free(pdir);
	free(sdir);
	return rc;
}

int pp_docker_write_dev(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_dev_input *in, const char *dir,
			struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, build = STRBUF_INIT;
	struct strbuf sshd = STRBUF_INIT, conf = STRBUF_INIT;
	char *spec_path = join(PP_DEV_SPEC_DIR, in->spec_file);
	int rc;

	pp_dockerfile_dev(spec, o, in, &text);
	pp_script_dev_build(spec, spec_path, &build);
	strbuf_addstr(&sshd, sshd_script);
	strbuf_addstr(&conf, sshd_conf);
	rc = fresh_dir(dir, err);
	if (rc == 0)
		rc = dev_sources(in, dir, err);
	if (rc == 0)
		rc = write_text(dir, "padpack-dev-build", &build, 0755, err);
	if (rc == 0)
		rc = write_text(dir, "padpack-sshd", &sshd, 0755, err);
	if (rc == 0)
		rc = write_text(dir, "sshd_config", &conf, 0644, err);
	if (rc == 0)
		rc = write_text(dir, "Dockerfile", &text, 0644, err);
	free(spec_path);
	strbuf_release(&text);
	strbuf_release(&build);
	strbuf_release(&sshd);
	strbuf_release(&conf);
	return rc;
}

/* ---- applications ------------------------------------------------------- */

static int app_files(const struct pp_app *app, const char *spec_dir,
		     const char *dir, struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < app->copy.nr; i++) {
		const char *s = app->copy.items[i];
		char *src = xstrndup(s, (size_t)(strchr(s, ':') - s));
		char *from = src[0] == '/' ? xstrdup(src) : join(spec_dir, src);
		char *to, *parent;
		struct stat st;

		strbuf_reset(&name);
		pp_app_copy_name(&name, i, s);
		to = join(dir, name.buf);
		parent = pp_dirname(to);
		rc = pp_mkdir_p(parent, 0755, err);
		if (rc == 0 && stat(from, &st) < 0)
			rc = pp_err_errno(err, PP_EXIT_INPUT, "app %s: copy "
					  "'%s': '%s'", app->name, s, from);
		else if (rc == 0 && S_ISDIR(st.st_mode))
			rc = pp_mkdir_p(to, 0755, err) ||
			     copy_tree(from, to, NULL, err) ? -1 : 0;
		else if (rc == 0)
			rc = pp_copy_file(from, to, st.st_mode & 07777, err);
		free(src);
		free(from);
		free(to);
		free(parent);
	}
	strbuf_release(&name);
	return rc;
}

int pp_docker_write_app(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_app *app, const char *from,
			const char *spec_dir, const char *dir,
			struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	pp_dockerfile_app(spec, o, app, from, &text);
	rc = fresh_dir(dir, err);
	if (rc == 0)
		rc = app_files(app, spec_dir, dir, err);
	if (rc == 0)
		rc = write_text(dir, "Dockerfile", &text, 0644, err);
	strbuf_release(&text);
	return rc;
}
