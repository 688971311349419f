//===- expected.h - A value or the message saying why there is none -------===//
//
// What a fallible function returns in the parts that build without LLVM
// (model, simulator, rules, views and gpu/, which GPU machines build with
// nothing but a compiler and nlohmann_json): the value, or a one-line
// Failure that says what is wrong and what to do. It has std::expected's
// shape (C++23; gmem is C++17 so that any GPU machine's compiler builds
// gpu/) and llvm::Expected's use: test it, then take the value or the
// message. The parts that link LLVM (analyzer/, gmem-analyze) use
// llvm::Expected; tools/ turns one into the other where it calls across.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_EXPECTED_H
#define GMEM_MODEL_EXPECTED_H

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gmem {

/// Why a function has no value: one line, naming what to change.
struct Failure {
  std::string Message;
};

template <class T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : V(std::in_place_index<0>, std::move(Value)) {}
  Expected(Failure F) : V(std::in_place_index<1>, std::move(F.Message)) {}

  explicit operator bool() const { return V.index() == 0; }
  T &operator*() { return std::get<0>(V); }
  const T &operator*() const { return std::get<0>(V); }
  T *operator->() { return &std::get<0>(V); }
  const T *operator->() const { return &std::get<0>(V); }
  /// Only when the result holds no value.
  const std::string &error() const { return std::get<1>(V); }

private:
  std::variant<T, std::string> V;
};

/// Success with nothing to return, or the Failure.
template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Failure F) : Message(std::move(F.Message)) {}

  explicit operator bool() const { return !Message; }
  /// Only when the result is a failure.
  const std::string &error() const { return *Message; }

private:
  std::optional<std::string> Message;
};

} // namespace gmem

#endif // GMEM_MODEL_EXPECTED_H
