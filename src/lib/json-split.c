/* padpack split --json: the package table (schema in doc/json.md). */
#include <string.h>
#include <sys/stat.h>

#include "json-out.h"
#include "split-plan.h"
#include "strbuf.h"

static void set(json_t *obj, const char *key, json_t *value)
{
	json_object_set_new(obj, key, value);
}

static json_t *split_pkg(const struct pp_split *s, const struct pp_split_pkg *p)
{
	struct strbuf path = STRBUF_INIT;
	json_t *obj = json_object();
	struct stat st;

	strbuf_addf(&path, "%s/%s", s->opts.out_dir, p->deb);
	set(obj, "package", pp_json_text(p->name));
	set(obj, "role", json_string(pp_role_name(p->role)));
	set(obj, "variant", pp_json_text(p->variant ? p->variant->name : NULL));
	set(obj, "common", json_boolean(p->common));
	set(obj, "architecture", json_string(p->arch_all ? "all" : s->arch));
	set(obj, "isa", pp_json_text(p->isa));
	set(obj, "size", stat(path.buf, &st) == 0 ?
	    json_integer((json_int_t)st.st_size) : json_null());
	set(obj, "deb", pp_json_text(p->deb));
	set(obj, "path", pp_json_text(path.buf));
	strbuf_release(&path);
	return obj;
}

json_t *pp_json_split(const struct pp_split *s)
{
	json_t *doc = json_object(), *pkgs = json_array(), *files = json_array();

	set(doc, "name", pp_json_text(s->spec->name));
	set(doc, "version", pp_json_text(s->version));
	set(doc, "variants", json_integer((json_int_t)s->nr_stages));
	set(doc, "output", pp_json_text(s->opts.out_dir));
	for (size_t i = 0; i < s->nr_pkgs; i++)
		json_array_append_new(pkgs, split_pkg(s, &s->pkgs[i]));
	set(doc, "packages", pkgs);
	for (size_t i = 0; i < s->written.nr; i++)
		if (!strstr(s->written.items[i], ".deb"))
			json_array_append_new(files,
					      pp_json_text(s->written.items[i]));
	set(doc, "other_files", files);
	return doc;
}
