#pragma once
// One string table per enum, used for parsing, printing and the "allowed values" of errors.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace desync {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
using EnumTable = std::array<EnumName<E>, N>;

template <class E, std::size_t N>
std::optional<E> parse_enum(const EnumTable<E, N>& table, std::string_view s) {
  for (const auto& e : table)
    if (e.name == s) return e.value;
  return std::nullopt;
}

template <class E, std::size_t N>
std::string_view enum_name(const EnumTable<E, N>& table, E v) {
  for (const auto& e : table)
    if (e.value == v) return e.name;
  return "?";
}

template <class E, std::size_t N>
std::string enum_choices(const EnumTable<E, N>& table) {
  std::string s;
  for (const auto& e : table) {
    if (!s.empty()) s += ", ";
    s += '"';
    s += e.name;
    s += '"';
  }
  return s;
}

}  // namespace desync
