#include "core/probe/probeio.h"

#include "core/interchange/jsonscanner.h"
#include "core/storage/atomicfile.h"

#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>

namespace creditlab::probe {

namespace {

// ---- writing ----

void appendArray(std::string& out, const std::vector<double>& values)
{
    out.push_back('[');
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            out.push_back(',');
        appendJsonNumber(out, values[i]);
    }
    out.push_back(']');
}

void appendLinear(std::string& out, const StandardScaler& scaler, const LogisticRegression& model)
{
    out += "{\"c\":";
    appendJsonNumber(out, model.options().c);
    out += ",\"scaler_mean\":";
    appendArray(out, scaler.mean());
    out += ",\"scaler_scale\":";
    appendArray(out, scaler.scale());
    out += ",\"weights\":";
    appendArray(out, model.weights());
    out += ",\"intercept\":";
    appendJsonNumber(out, model.intercept());
    out.push_back('}');
}

std::string header(const char* kind)
{
    return "{\"format\":\"creditlab-probe\",\"version\":" + std::to_string(kProbeFormatVersion) + ",\"kind\":\"" + kind
        + "\"";
}

// ---- reading: a small DOM over JsonScanner ----

struct Value {
    JsonScanner::Kind kind = JsonScanner::Kind::Null;
    double number = 0.0;
    std::string text;
    std::vector<Value> items;
    std::map<std::string, Value> members;
};

Value parseValue(JsonScanner& s, int depth)
{
    if (depth > 16)
        s.fail("probe JSON nested too deeply");
    Value v;
    v.kind = s.peek();
    switch (v.kind) {
    case JsonScanner::Kind::Object: {
        s.expect('{');
        std::string key;
        for (bool first = true; s.nextMember(key, nullptr, first); first = false)
            v.members[key] = parseValue(s, depth + 1);
        break;
    }
    case JsonScanner::Kind::Array:
        s.expect('[');
        for (bool first = true; s.nextElement(first); first = false)
            v.items.push_back(parseValue(s, depth + 1));
        break;
    case JsonScanner::Kind::String:
        s.readString(v.text);
        break;
    case JsonScanner::Kind::Number:
        v.number = s.readNumber();
        break;
    default:
        s.skipValue();
        break;
    }
    return v;
}

Value parseDocument(std::string_view json)
{
    try {
        JsonScanner s(json);
        Value v = parseValue(s, 0);
        s.expectEnd();
        if (v.kind != JsonScanner::Kind::Object)
            throw std::invalid_argument("probe JSON: the document is not an object");
        return v;
    } catch (const JsonSyntaxError& e) {
        throw std::invalid_argument("probe JSON: " + e.message + " at byte " + std::to_string(e.offset));
    }
}

const Value& member(const Value& object, const std::string& key, JsonScanner::Kind kind)
{
    const auto it = object.members.find(key);
    if (it == object.members.end() || it->second.kind != kind)
        throw std::invalid_argument("probe JSON: missing or mistyped member '" + key + "'");
    return it->second;
}

double number(const Value& object, const std::string& key)
{
    return member(object, key, JsonScanner::Kind::Number).number;
}

std::vector<double> numbers(const Value& object, const std::string& key)
{
    std::vector<double> out;
    for (const Value& item : member(object, key, JsonScanner::Kind::Array).items) {
        if (item.kind != JsonScanner::Kind::Number)
            throw std::invalid_argument("probe JSON: a non-number inside '" + key + "'");
        out.push_back(item.number);
    }
    return out;
}

Value parseProbe(std::string_view json, const std::string& kind)
{
    Value v = parseDocument(json);
    if (member(v, "format", JsonScanner::Kind::String).text != "creditlab-probe")
        throw std::invalid_argument("probe JSON: not a creditlab probe file");
    if (number(v, "version") != kProbeFormatVersion)
        throw std::invalid_argument("probe JSON: unsupported version");
    if (!kind.empty() && member(v, "kind", JsonScanner::Kind::String).text != kind)
        throw std::invalid_argument("probe JSON: expected a '" + kind + "' probe");
    return v;
}

std::pair<StandardScaler, LogisticRegression> readLinear(const Value& v)
{
    if (v.kind != JsonScanner::Kind::Object)
        throw std::invalid_argument("probe JSON: a probe stage is not an object");
    StandardScaler scaler;
    scaler.setParameters(numbers(v, "scaler_mean"), numbers(v, "scaler_scale"));
    LogisticOptions options;
    options.c = number(v, "c");
    LogisticRegression model(options);
    model.setCoefficients(numbers(v, "weights"), number(v, "intercept"));
    return { std::move(scaler), std::move(model) };
}

LinearProbe linearFrom(const Value& v)
{
    auto [scaler, model] = readLinear(v);
    LinearProbe probe;
    probe.restore(std::move(scaler), std::move(model));
    return probe;
}

} // namespace

std::string toJson(const LinearProbe& probe)
{
    if (!probe.fitted())
        throw std::logic_error("toJson: the probe is not fitted");
    std::string out = header("linear") + ",\"probe\":";
    appendLinear(out, probe.scaler(), probe.model());
    return out + "}\n";
}

std::string toJson(const PairProbe& probe)
{
    if (!probe.fitted())
        throw std::logic_error("toJson: the probe is not fitted");
    std::string out = header("pair") + ",\"mode\":\"" + pairStage2ModeName(probe.mode()) + "\",\"stage1\":";
    appendLinear(out, probe.stage1().scaler(), probe.stage1().model());
    out += ",\"stage2\":";
    appendLinear(out, probe.stage2Scaler(), probe.stage2Model());
    return out + "}\n";
}

std::string toJson(const LayerwiseProbe& probe)
{
    if (!probe.fitted())
        throw std::logic_error("toJson: the probe is not fitted");
    std::string out = header("layerwise") + ",\"best_layer\":" + std::to_string(probe.bestLayer());
    out += ",\"validation_auroc\":";
    appendArray(out, probe.validationAuroc());
    out += ",\"layers\":[";
    for (std::size_t l = 0; l < probe.layers(); ++l) {
        if (l > 0)
            out.push_back(',');
        appendLinear(out, probe.probe(l).scaler(), probe.probe(l).model());
    }
    return out + "]}\n";
}

LinearProbe linearProbeFromJson(std::string_view json)
{
    const Value v = parseProbe(json, "linear");
    return linearFrom(member(v, "probe", JsonScanner::Kind::Object));
}

PairProbe pairProbeFromJson(std::string_view json)
{
    const Value v = parseProbe(json, "pair");
    const PairStage2Mode mode = pairStage2ModeFromName(member(v, "mode", JsonScanner::Kind::String).text);
    auto [scaler, model] = readLinear(member(v, "stage2", JsonScanner::Kind::Object));
    PairProbe probe;
    probe.restore(
        mode, linearFrom(member(v, "stage1", JsonScanner::Kind::Object)), std::move(scaler), std::move(model));
    return probe;
}

LayerwiseProbe layerwiseProbeFromJson(std::string_view json)
{
    const Value v = parseProbe(json, "layerwise");
    std::vector<LinearProbe> probes;
    for (const Value& layer : member(v, "layers", JsonScanner::Kind::Array).items)
        probes.push_back(linearFrom(layer));
    const double best = number(v, "best_layer");
    if (best < 0 || best != static_cast<double>(static_cast<std::size_t>(best)))
        throw std::invalid_argument("probe JSON: best_layer is not a layer index");
    LayerwiseProbe probe;
    probe.restore(std::move(probes), numbers(v, "validation_auroc"), static_cast<std::size_t>(best));
    return probe;
}

std::string probeKindFromJson(std::string_view json)
{
    return member(parseProbe(json, {}), "kind", JsonScanner::Kind::String).text;
}

template <typename Probe> void saveProbe(const std::string& path, const Probe& probe)
{
    writeFileAtomically(path, toJson(probe));
}
template void saveProbe<LinearProbe>(const std::string&, const LinearProbe&);
template void saveProbe<PairProbe>(const std::string&, const PairProbe&);
template void saveProbe<LayerwiseProbe>(const std::string&, const LayerwiseProbe&);

std::string readProbeFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read probe file " + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace creditlab::probe
