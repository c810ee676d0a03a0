#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strbuf.h"
#include "xalloc.h"

struct walk {
	struct strbuf full; /* root + "/" + current path */
	size_t root_len;
	const char *skip;
	struct pp_tree *t;
	struct pp_tree links; /* symbolic links, appended at the end */
	struct pp_err *err;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_names(const char *dir, char ***names, size_t *nr,
		      struct pp_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;

	*names = NULL;
	*nr = 0;
	if (!d)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open directory '%s'",
				    dir);
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ARRAY_GROW(*names, alloc, *nr + 1);
		(*names)[(*nr)++] = xstrdup(de->d_name);
	}
	if (errno) {
		pp_err_errno(err, PP_EXIT_IO, "cannot read directory '%s'", dir);
		closedir(d);
		return -1;
	}
	closedir(d);
	if (*nr)
		qsort(*names, *nr, sizeof(**names), cmp_names);
	return 0;
}

static struct pp_tree_entry *push(struct pp_tree *t)
{
	struct pp_tree_entry *e;

	ARRAY_GROW(t->e, t->alloc, t->nr + 1);
	e = &t->e[t->nr++];
	memset(e, 0, sizeof(*e));
	e->first = -1;
	return e;
}

static int add_entry(struct walk *w, struct pp_tree_entry **out)
{
	const char *full = w->full.buf;
	const char *rel = full + w->root_len;
	struct stat st;
	struct pp_tree_entry *e;

	if (*rel == '/')
		rel++;
	if (lstat(full, &st) < 0)
		return pp_err_errno(w->err, PP_EXIT_IO, "cannot stat '%s'", full);
	if (strchr(rel, '\n'))
		return pp_err_set(w->err, PP_EXIT_INPUT, "'%s': newline in a "
				  "file name; dpkg cannot list such a file, "
				  "rename it", full);
	e = push(S_ISLNK(st.st_mode) ? &w->links : w->t);
	e->path = xstrdup(rel);
	e->st = st;
	if (S_ISLNK(st.st_mode)) {
		struct strbuf target = STRBUF_INIT;
		ssize_t n;

		strbuf_grow(&target, (size_t)st.st_size + 1);
		n = readlink(full, target.buf, target.alloc);
		if (n < 0 || (size_t)n >= target.alloc) {
			strbuf_release(&target);
			return pp_err_errno(w->err, PP_EXIT_IO, "cannot read "
					    "link '%s'", full);
		}
		strbuf_setlen(&target, (size_t)n);
		e->link_target = strbuf_detach(&target, NULL);
	}
	*out = e;
	return 0;
}

static int walk_dir(struct walk *w, int top)
{
	size_t len = w->full.len, nr, i;
	char **names;
	int rc = 0;

	if (read_names(w->full.buf, &names, &nr, w->err) < 0)
		return -1;
	for (i = 0; i < nr && !rc; i++) {
		struct pp_tree_entry *e;

		if (top && w->skip && !strcmp(names[i], w->skip))
			continue;
		strbuf_addf(&w->full, "/%s", names[i]);
		rc = add_entry(w, &e);
		if (!rc && S_ISDIR(e->st.st_mode))
			rc = walk_dir(w, 0);
		strbuf_setlen(&w->full, len);
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return rc;
}

struct inode_ref {
	dev_t dev;
	ino_t ino;
	size_t idx;
};

static int cmp_inode(const void *a, const void *b)
{
	const struct inode_ref *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Marks later entries of an inode already seen as hard links to the first. */
static void find_hardlinks(struct pp_tree *t)
{
	struct inode_ref *refs = NULL;
	size_t nr = 0, alloc = 0, i;

	for (i = 0; i < t->nr; i++) {
		const struct stat *st = &t->e[i].st;

		if (!S_ISREG(st->st_mode) || st->st_nlink < 2)
			continue;
		ARRAY_GROW(refs, alloc, nr + 1);
		refs[nr++] = (struct inode_ref){ st->st_dev, st->st_ino, i };
	}
	if (nr)
		qsort(refs, nr, sizeof(*refs), cmp_inode);
	for (i = 1; i < nr; i++) {
		size_t j = i - 1;

		if (refs[j].dev != refs[i].dev || refs[j].ino != refs[i].ino)
			continue;
		t->e[refs[i].idx].first = t->e[refs[j].idx].first >= 0 ?
			t->e[refs[j].idx].first : (ssize_t)refs[j].idx;
	}
	free(refs);
}

int pp_tree_walk(const char *root, const char *skip, struct pp_tree *t,
		 struct pp_err *err)
{
	struct walk w = { STRBUF_INIT, 0, skip, t, { 0 }, err };
	struct pp_tree_entry *e;
	int rc;

	memset(t, 0, sizeof(*t));
	strbuf_addstr(&w.full, root);
	while (w.full.len > 1 && w.full.buf[w.full.len - 1] == '/')
		strbuf_setlen(&w.full, w.full.len - 1);
	w.root_len = w.full.len;
	rc = add_entry(&w, &e);
	if (!rc && !S_ISDIR(e->st.st_mode))
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a directory",
				root);
	if (!rc)
		rc = walk_dir(&w, 1);
	strbuf_release(&w.full);
	for (size_t i = 0; i < w.links.nr; i++)
		*push(t) = w.links.e[i];
	free(w.links.e);
	if (rc < 0) {
		pp_tree_release(t);
		return -1;
	}
	find_hardlinks(t);
	return 0;
}

void pp_tree_release(struct pp_tree *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->e[i].path);
		free(t->e[i].link_target);
	}
	free(t->e);
	memset(t, 0, sizeof(*t));
}
