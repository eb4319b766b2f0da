#pragma once
// The deck's workload table as its own module reads it: a struct the config layer stores without
// knowing its type (each workload folder defines and reads its own,
// workloads/<name>/<name>_config.hpp). Copies are deep, so a Config copy can be changed alone.
#include <any>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace desync {

class WorkloadParams {
 public:
  // The workload's struct; a logic error (a bug, never a deck error) if it holds another type.
  template <class T>
  const T& get() const {
    const T* p = std::any_cast<T>(&value_);
    if (!p) throw std::logic_error(std::string("workload parameters hold ") + held() + ", not " + typeid(T).name());
    return *p;
  }
  // Mutable access; an empty value becomes T{} first (tests and benches build configs by hand).
  template <class T>
  T& get() {
    if (!value_.has_value()) value_ = T{};
    T* p = std::any_cast<T>(&value_);
    if (!p) throw std::logic_error(std::string("workload parameters hold ") + held() + ", not " + typeid(T).name());
    return *p;
  }
  template <class T>
  void set(T value) { value_ = std::move(value); }
  bool empty() const { return !value_.has_value(); }

 private:
  const char* held() const { return value_.has_value() ? value_.type().name() : "nothing"; }
  std::any value_;
};

}  // namespace desync
