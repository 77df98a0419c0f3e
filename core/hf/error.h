#pragma once

// The one error type of the Hugging Face loaders.

#include <stdexcept>
#include <string>

namespace creditlab::hf {

/// A bad or unsupported model folder, checkpoint, tokenizer or template. `what()` names the file and, where there is
/// one, the key, tensor or line: "config.json: key \"hidden_size\": expected an integer".
class HfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace creditlab::hf
