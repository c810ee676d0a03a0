/* A directory tree listed in the order dpkg-deb archives it: depth first,
 * each directory's entries sorted bytewise, symbolic links moved to the end
 * (so that no link comes before its target). */
#ifndef PP_TREE_H
#define PP_TREE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "error.h"

struct pp_tree_entry {
	char *path;        /* relative to the root, no "./"; "" is the root */
	struct stat st;    /* from lstat */
	char *link_target; /* symbolic links only */
	ssize_t first;     /* hard link: index of the inode's first entry */
};

struct pp_tree {
	struct pp_tree_entry *e;
	size_t nr, alloc;
};

/* Lists root; a top-level entry named skip (may be NULL) is left out with
 * everything below it. */
int pp_tree_walk(const char *root, const char *skip, struct pp_tree *t,
		 struct pp_err *err);
void pp_tree_release(struct pp_tree *t);

#endif
