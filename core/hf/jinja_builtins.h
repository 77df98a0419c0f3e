#pragma once

// The filters, tests, globals and Python methods of the Jinja engine (internal), looked up by name.

#include "core/hf/jinja_ast.h"

#include <string_view>

namespace creditlab::hf::jinja {

/// The filter or test called `name`, or null where jinja2 (as transformers configures it) has none we support.
FilterFn findFilter(std::string_view name);
TestFn findTest(std::string_view name);
/// A global function (range, namespace, dict, raise_exception, strftime_now), or Undefined.
Value findGlobal(std::string_view name);
/// `obj.name` as the immutable sandbox resolves it for str, list, tuple and dict: a bound method, an Undefined that
/// raises SecurityError when called (mutating methods), or a missing value (isMissing) where Python has no method.
Value findMethod(const Value& obj, std::string_view name);

} // namespace creditlab::hf::jinja
