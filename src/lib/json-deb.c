/* The --json documents of info, field and contents: what a package says
 * of itself, in the values dpkg-deb shows (schemas in doc/json.md). */
#include <string.h>
#include <sys/stat.h>

#include "control.h"
#include "deb.h"
#include "json-out.h"
#include "strbuf.h"

static void set(json_t *obj, const char *key, json_t *value)
{
	json_object_set_new(obj, key, value);
}

/* A field's value as dpkg-deb --field NAME shows it; a field dpkg does
 * not show from a package file keeps its value as written. */
static json_t *field_value(const struct pp_stanza *st, const char *name,
			   const char **shown, struct pp_err *err)
{
	struct strbuf value = STRBUF_INIT;
	json_t *v;

	*shown = name;
	if (pp_field_show(st, name, 0, shown, &value, err))
		v = pp_json_text(value.buf);
	else if (pp_stanza_find(st, name))
		v = pp_json_text(pp_stanza_find(st, name)->value);
	else
		v = json_null();
	strbuf_release(&value);
	return v;
}

json_t *pp_json_fields_of(const struct pp_stanza *st, int argc,
			  char **names, struct pp_err *err)
{
	json_t *obj = json_object();
	const char *shown;

	if (!names) {
		for (size_t i = 0; i < st->nr; i++) {
			json_t *v = field_value(st, st->fields[i].name, &shown,
						err);

			if (!json_object_get(obj, shown)) /* the first of twins */
				set(obj, shown, v);
			else
				json_decref(v);
		}
		return obj;
	}
	for (int i = 0; i < argc; i++) {
		json_t *v = field_value(st, names[i], &shown, err);

		set(obj, json_is_null(v) ? names[i] : shown, v);
	}
	return obj;
}

json_t *pp_json_fields(const char *path, const struct pp_stanza *st,
		       int argc, char **names, struct pp_err *err)
{
	json_t *doc = json_object();

	set(doc, "file", pp_json_text(path));
	set(doc, "fields", pp_json_fields_of(st, argc, names, err));
	return doc;
}

static json_t *control_file(const struct pp_ctrl_member *m)
{
	json_t *obj = json_object();
	char interp[256];
	int lines;

	set(obj, "name", pp_json_text(m->name));
	set(obj, "plain", json_boolean(m->plain));
	if (!m->plain)
		return obj;
	pp_ctrl_member_shape(m, &lines, interp);
	set(obj, "size", json_integer((json_int_t)m->data.len));
	set(obj, "lines", json_integer(lines));
	set(obj, "executable", json_boolean(m->mode & S_IXUSR));
	set(obj, "interpreter", *interp ? pp_json_text(interp + 2) :
	    json_null());
	return obj;
}

json_t *pp_json_info(const struct pp_deb *deb,
		     const struct pp_ctrl_members *cm, struct pp_err *err)
{
	json_t *doc = json_object(), *files = json_array();
	const struct pp_ctrl_member *control = pp_ctrl_members_find(cm,
								    "control");
	char format[16];

	snprintf(format, sizeof(format), "2.%d", deb->minor);
	set(doc, "file", pp_json_text(deb->ar.path));
	set(doc, "format", json_string(format));
	set(doc, "size", json_integer((json_int_t)deb->ar.size));
	set(doc, "control_archive_size",
	    json_integer((json_int_t)deb->control.size));
	for (size_t i = 0; i < cm->nr; i++)
		json_array_append_new(files, control_file(&cm->m[i]));
	set(doc, "control_files", files);
	if (control) {
		struct pp_stanza st;

		pp_control_parse_lenient(control->data.buf, control->data.len,
					 "control", &st, err);
		set(doc, "control", pp_json_fields_of(&st, 0, NULL, err));
		pp_stanza_release(&st);
	} else {
		set(doc, "control", json_null());
	}
	return doc;
}

json_t *pp_json_info_files(const char *path, const struct pp_ctrl_members *cm,
			   int argc, char **names, int *missing)
{
	json_t *doc = json_object(), *files = json_object();

	*missing = 0;
	for (int i = 0; i < argc; i++) {
		const struct pp_ctrl_member *m = pp_ctrl_members_find(cm,
								      names[i]);

		*missing += !m;
		set(files, names[i], m ? pp_json_textn(m->data.buf, m->data.len) :
		    json_null());
	}
	set(doc, "file", pp_json_text(path));
	set(doc, "control_files", files);
	return doc;
}

static const char *entry_type(const struct pp_tar_entry *e)
{
	mode_t m = e->mode;

	if (e->hardlink)
		return "hardlink";
	return S_ISDIR(m) ? "directory" : S_ISLNK(m) ? "symlink" :
	       S_ISCHR(m) ? "character-device" : S_ISBLK(m) ? "block-device" :
	       S_ISFIFO(m) ? "fifo" : S_ISSOCK(m) ? "socket" : "file";
}

json_t *pp_json_tar_entry(const struct pp_tar_entry *e)
{
	json_t *obj = json_object();
	char mode[8];

	snprintf(mode, sizeof(mode), "%04o", (unsigned)(e->mode & 07777));
	set(obj, "path", pp_json_text(e->path));
	set(obj, "type", json_string(entry_type(e)));
	set(obj, "mode", json_string(mode));
	set(obj, "user", e->uname && *e->uname ? pp_json_text(e->uname) :
	    json_null());
	set(obj, "group", e->gname && *e->gname ? pp_json_text(e->gname) :
	    json_null());
	set(obj, "uid", json_integer((json_int_t)e->uid));
	set(obj, "gid", json_integer((json_int_t)e->gid));
	set(obj, "size", json_integer(e->hardlink ? 0 : (json_int_t)e->size));
	set(obj, "mtime", json_integer((json_int_t)e->mtime));
	set(obj, "target", pp_json_text(e->hardlink ? e->hardlink :
					e->symlink));
	if (S_ISCHR(e->mode) || S_ISBLK(e->mode)) {
		set(obj, "major", json_integer(e->devmajor));
		set(obj, "minor", json_integer(e->devminor));
	}
	return obj;
}

json_t *pp_json_contents(const char *path, json_t *entries)
{
	json_t *doc = json_object();

	set(doc, "file", pp_json_text(path));
	set(doc, "entries", entries);
	return doc;
}
