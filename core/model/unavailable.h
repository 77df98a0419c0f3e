#pragma once

#include <stdexcept>

namespace creditlab {

/// A server the run depends on (a remote environment, an HTTP judge) could not be reached, or broke off: after the
/// client's own retries, nothing answered (connection refused or reset, no answer, HTTP 502/503/504). Unlike an
/// error the server reports, this may pass: the trainer waits for it (rl.outage_wait_s) instead of failing the run.
class ServiceUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace creditlab
