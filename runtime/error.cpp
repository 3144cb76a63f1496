// Error values, wrapping and texts.
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/error.hpp"

#include "sim/assert.hpp"

namespace routesim::runtime {

struct Error::Detail {
    std::string text; // ad-hoc text, or the origin of a wrapped error
    Error inner;      // wrapped errors only
};

namespace {

std::string_view terminate_name(std::uint8_t code) {
    switch (static_cast<TerminateReason>(code)) {
    case TerminateReason::Normal:
        return "normal";
    case TerminateReason::Kill:
        return "kill";
    case TerminateReason::Panic:
        return "panic";
    case TerminateReason::Shutdown:
        return "shutdown";
    }
    RS_ASSERT(false);
    return {};
}

} // namespace

Error Error::text(std::string message) {
    return Error(Kind::Text,
                 std::make_shared<const Detail>(Detail{std::move(message), Err::Unknown}));
}

Error Error::wrap(std::string origin, Error inner) {
    return Error(Kind::Wrapped,
                 std::make_shared<const Detail>(Detail{std::move(origin), std::move(inner)}));
}

bool Error::is_clean() const {
    const Error plain = unwrap();
    return plain.is(TerminateReason::Normal) || plain.is(TerminateReason::Shutdown);
}

Error Error::unwrap() const {
    if (kind_ == Kind::Wrapped) {
        return detail_->inner;
    }
    return *this;
}

std::optional<Err> Error::err() const {
    if (kind_ != Kind::Named) {
        return std::nullopt;
    }
    return static_cast<Err>(code_);
}

std::string Error::message() const {
    switch (kind_) {
    case Kind::Named:
        return std::string(error_text(static_cast<Err>(code_)));
    case Kind::Terminate:
        return std::string(terminate_name(code_));
    case Kind::Text:
        return detail_->text;
    case Kind::Wrapped:
        return detail_->text + ": " + detail_->inner.message();
    }
    RS_ASSERT(false);
    return {};
}

std::string Error::name() const {
    if (kind_ == Kind::Named) {
        return std::string(ergo_name(static_cast<Err>(code_)));
    }
    return message();
}

std::string_view Error::name(std::string& scratch) const {
    switch (kind_) {
    case Kind::Named:
        return ergo_name(static_cast<Err>(code_));
    case Kind::Terminate:
        return terminate_name(code_);
    case Kind::Text:
        return detail_->text;
    case Kind::Wrapped:
        break;
    }
    scratch = message();
    return scratch;
}

bool Error::operator==(const Error& other) const {
    if (kind_ != other.kind_) {
        return false;
    }
    switch (kind_) {
    case Kind::Named:
    case Kind::Terminate:
        return code_ == other.code_;
    case Kind::Text:
        return detail_->text == other.detail_->text;
    case Kind::Wrapped:
        return detail_->text == other.detail_->text && detail_->inner == other.detail_->inner;
    }
    return false;
}

Error parse_reason(std::string_view text) {
    for (auto reason : {TerminateReason::Normal, TerminateReason::Kill, TerminateReason::Panic,
                        TerminateReason::Shutdown}) {
        if (terminate_name(static_cast<std::uint8_t>(reason)) == text) {
            return reason;
        }
    }
    if (const std::optional<Err> err = parse_ergo_name(text)) {
        return *err;
    }
    return Error::text(std::string(text));
}

} // namespace routesim::runtime
