/* padpack build --json: the result of every variant (schema in
 * doc/json.md). */
#include "build.h"
#include "json-out.h"
#include "spec.h"
#include "strbuf.h"

static void set(json_t *obj, const char *key, json_t *value)
{
	json_object_set_new(obj, key, value);
}

/* Seconds to the hundredth, as the text shows them. */
static json_t *seconds(double s)
{
	return json_real((double)(long long)(s * 100 + 0.5) / 100);
}

static json_t *build_step(const struct pp_step *s)
{
	json_t *obj = json_object();

	set(obj, "phase", json_string(pp_phase_name(s->phase)));
	set(obj, "seconds", seconds(s->seconds));
	set(obj, "up_to_date", json_boolean(s->up_to_date));
	return obj;
}

static json_t *build_job(const struct pp_job *j)
{
	struct strbuf cmd = STRBUF_INIT;
	int failed = j->phase == PP_PHASE_FAILED;
	json_t *obj = json_object(), *steps = json_array();

	if (failed)
		pp_step_command(&j->steps[j->current], &cmd);
	set(obj, "name", pp_json_text(j->variant->name));
	set(obj, "suffix", pp_json_text(j->variant->suffix));
	set(obj, "status", json_string(pp_phase_name(j->phase)));
	set(obj, "seconds", seconds(pp_job_seconds(j)));
	set(obj, "failed_step", failed ?
	    json_string(pp_phase_name(j->steps[j->current].phase)) :
	    json_null());
	set(obj, "stage", pp_json_text(j->phase == PP_PHASE_DONE ? j->stage :
				       NULL));
	set(obj, "log", pp_json_text(j->phase == PP_PHASE_SKIPPED ? NULL :
				     j->log));
	set(obj, "message", pp_json_text(j->message));
	set(obj, "reproduce", failed ? pp_json_text(cmd.buf) : json_null());
	for (size_t i = 0; i < j->nr_steps; i++)
		json_array_append_new(steps, build_step(&j->steps[i]));
	set(obj, "steps", steps);
	strbuf_release(&cmd);
	return obj;
}

json_t *pp_json_build(const struct pp_build *b)
{
	json_t *doc = json_object(), *jobs = json_array();

	set(doc, "spec", pp_json_text(b->spec->path));
	set(doc, "name", pp_json_text(b->spec->name));
	set(doc, "version", pp_json_text(b->version));
	set(doc, "version_from",
	    json_string(pp_version_origin_name(b->version_origin)));
	set(doc, "source", pp_json_text(b->source));
	set(doc, "image", pp_json_text(b->image));
	for (size_t i = 0; i < b->nr_jobs; i++)
		json_array_append_new(jobs, build_job(&b->jobs[i]));
	set(doc, "variants", jobs);
	return doc;
}
