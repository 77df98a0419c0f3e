// The policy's tokenizer (core/learn/torch/lm/tokenizer.cpp, torch-free, compiled into this target). Three checks on
// each input: its pieces concatenate back to it; a vocabulary built from it encodes it and decodes it back byte for
// byte (and survives serialize/deserialize); and the input read as a tokenizer file either loads (then it writes
// back to a file that loads equal, and encodes and decodes any text) or throws TokenizerError naming the file and
// line.

#include "core/learn/torch/lm/tokenizer.h"
#include "tests/fuzz/fuzzutil.h"

using namespace creditlab;
using learn::Tokenizer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input = fuzz::text(data, size);
    try {
        std::string joined;
        for (const std::string_view piece : Tokenizer::pieces(input))
            joined += piece;
        if (joined != input)
            fuzz::finding("the pieces do not give the text back");

        const std::string corpus(input);
        const Tokenizer built = Tokenizer::fromCorpus(std::span<const std::string>(&corpus, 1));
        if (built.decode(built.encode(input)) != input)
            fuzz::finding("a corpus text does not decode back");
        if (!(Tokenizer::deserialize(built.serialize(), "built") == built))
            fuzz::finding("a built tokenizer does not read back");
    } catch (const std::exception& e) {
        fuzz::unexpected("pieces/fromCorpus", e);
    }

    try {
        const Tokenizer t = Tokenizer::deserialize(input, "fuzz.tok");
        if (!(Tokenizer::deserialize(t.serialize(), "written") == t))
            fuzz::finding("a tokenizer file does not read back");
        const auto ids = t.encode("You are in the middle of a room. Your task is to: put a clean mug in coffeemachine 1.");
        t.decode(ids);
    } catch (const learn::TokenizerError& e) {
        fuzz::note(e.what());
        if (!fuzz::names(e.what(), "fuzz.tok:"))
            fuzz::finding("a TokenizerError does not name the file", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("Tokenizer::deserialize", e);
    }
    return 0;
}
