// The ingestion API's POST /v1/credit (ingestserver.h): credit from CreditLab's estimators for a posted batch,
// computed on the caller's thread without a database.
#include "core/server/api_p.h"

#include "core/credit/creditlines.h"
#include "core/credit/estimator.h"
#include "core/credit/explain.h"
#include "core/interchange/jsonscanner.h"

namespace creditlab::server {

Reply Api::credit(std::string_view body) const
{
    return guarded([&] {
        JsonDoc doc;
        parseBody(doc, body);
        requireKnownMembers(doc, { "method", "params", "trajectories", "format", "markers", "details" });
        const Index root = doc.root();
        const Index m = doc.member(root, "method");
        if (m == kNone)
            refuse(422, "method", "is required but missing");
        const std::string name = readString(doc, m, "method");
        const credit::Estimator* method = credit::findEstimator(name);
        if (!method) {
            std::string known;
            for (const credit::Estimator* e : credit::estimators())
                known += (known.empty() ? "" : ", ") + std::string(e->name());
            refuse(422, "method", "unknown method \"" + name + "\" (known: " + known + ")");
        }
        std::vector<std::pair<std::string, std::string>> assignments;
        if (const Index p = doc.member(root, "params"); p != kNone) {
            if (doc.kind(p) != Kind::Object)
                refuse(422, "params", "expected an object of name: value");
            for (Index e = doc.first(p); e != kNone; e = doc.next(p, e)) {
                const std::string key = doc.key(e);
                switch (doc.kind(e)) {
                case Kind::String:
                    assignments.emplace_back(key, doc.string(e));
                    break;
                case Kind::Number:
                case Kind::True:
                case Kind::False:
                    assignments.emplace_back(key, std::string(doc.node(e).raw));
                    break;
                default:
                    refuse(422, "params." + key, "expected a number, a boolean or a string");
                }
            }
        }
        bool details = false;
        if (const Index d = doc.member(root, "details"); d != kNone) {
            if (doc.kind(d) != Kind::True && doc.kind(d) != Kind::False)
                refuse(422, "details", "expected true or false");
            details = doc.boolean(d);
        }
        const credit::Params params = [&] {
            try {
                return method->resolve(assignments);
            } catch (const credit::ParamError& e) {
                refuse(422, "params", e.what());
            }
        }();
        std::vector<Trajectory> trajectories = readRecords(doc, readRecordOptions(doc), "line-", false);
        const Batch batch = Batch::fromTrajectories(std::move(trajectories));
        try {
            method->validate(batch, params);
        } catch (const credit::CreditInputError& e) {
            refuse(422, "trajectories", e.what());
        }
        const credit::CreditResult r = method->compute(batch, params);
        std::string out = "{\"method\":";
        appendJsonString(out, method->name());
        out += ",\"credits\":[";
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            if (i > 0)
                out += ',';
            out += credit::creditJson(batch.trajectories[i], r, i, details);
        }
        out += "]";
        if (const auto why = credit::zeroCreditReason(batch, r, method->name())) {
            out += ",\"note\":"; // every advantage is 0: why, and what would change it
            appendJsonString(out, *why);
        }
        out += "}";
        return Reply { 200, out };
    });
}

} // namespace creditlab::server
