#pragma once

// UTF-8 and Unicode helpers of the tokenizer, and GPT-2's byte-level alphabet: each of the 256 byte values stands for
// one printable character ("Ġ" for the space, "Ċ" for the newline), so that byte-level BPE pieces are text. Internal
// to creditlab_hf.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace creditlab::hf::detail {

/// The length of the valid UTF-8 prefix of `text` (text.size() when all of it is valid). Surrogates and overlong
/// forms are invalid, as in Rust's `str`.
std::size_t validUtf8Prefix(std::string_view text);

/// The code point starting at `text[at]` (which must be valid UTF-8) and its length in bytes.
char32_t decodeUtf8(std::string_view text, std::size_t at, std::size_t& length);

void appendUtf8(std::string& out, char32_t c);

/// `bytes` as text the way Rust's `String::from_utf8_lossy` reads it: each maximal invalid subpart becomes U+FFFD.
std::string lossyUtf8(std::string_view bytes);

/// The GPT-2 byte-level character that stands for `byte`.
char32_t byteLevelChar(unsigned char byte);

/// The byte that `text` (byte-level characters) stands for, or nullopt when one of its characters is not a byte-level
/// character.
std::optional<std::string> byteLevelToBytes(std::string_view text);

/// `bytes` written with byte-level characters.
std::string bytesToByteLevel(std::string_view bytes);

/// Rust's `char::is_whitespace` (the White_Space property).
bool isWhitespace(char32_t c);
/// Rust's `char::is_numeric` (general categories Nd, Nl, No).
bool isNumeric(char32_t c);

/// Unicode NFC of valid UTF-8 `text` (utf8proc). Returns false, leaving `out` alone, when `text` is already in NFC;
/// otherwise writes the NFC into `out` and returns true.
bool nfc(std::string_view text, std::string& out);

} // namespace creditlab::hf::detail
