#pragma once
// Typed access to an untrusted JSON document that perfgate wrote (verdicts.json, ab's JSON): each field's presence and
// type checked, every miss one InputError naming the file, what it should have been, and where.
#include "base/error.h"
#include "base/json_input.h"

#include <cmath>
#include <set>
#include <string>

namespace perfgate {

class JsonReader {
 public:
  /// `kind` completes "<source>: not <kind>: ...", e.g. "a perfgate verdicts.json".
  JsonReader(std::string source, std::string kind) : source_(std::move(source)), kind_(std::move(kind)) {}

  [[noreturn]] void fail(const std::string& what) const { throw InputError(source_ + ": not " + kind_ + ": " + what); }

  const nlohmann::json& member(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    if (!object.is_object()) fail(where + " is not an object");
    const auto found = object.find(key);
    if (found == object.end()) fail(where + " has no '" + key + "'");
    return *found;
  }
  std::string text(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_string()) fail(where + "." + key + " is not a string");
    return v.get<std::string>();
  }
  double number(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(where + "." + key + " is not a finite number");
    return v.get<double>();
  }
  bool flag(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_boolean()) fail(where + "." + key + " is not true or false");
    return v.get<bool>();
  }
  const nlohmann::json& array(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_array()) fail(where + "." + key + " is not an array");
    return v;
  }
  /// A count in [low, high], written as a whole number.
  int64_t count(const nlohmann::json& object, const std::string& key, const std::string& where, int64_t low,
                int64_t high) const {
    const auto v = exact_int64(member(object, key, where));
    if (!v || *v < low || *v > high)
      fail(where + "." + key + " is not a whole number from " + std::to_string(low) + " to " + std::to_string(high));
    return *v;
  }
  /// Every member of `object` in `allowed`, or a text member `comment` accepts (a format's comments; none when null):
  /// a misspelt key fails instead of being ignored.
  void only_members(const nlohmann::json& object, const std::set<std::string>& allowed, const std::string& where,
                    bool (*comment)(const std::string&) = nullptr) const {
    if (!object.is_object()) fail(where + " is not an object");
    for (const auto& [key, value] : object.items()) {
      if (comment != nullptr && comment(key)) {
        if (!value.is_string()) fail(where + "." + key + " is not a string");
        continue;
      }
      if (allowed.count(key) == 0) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(where + " has an unknown member '" + key + "' (known: " + list + ")");
      }
    }
  }
  /// A text that must be one of `allowed`.
  std::string one_of(const nlohmann::json& object, const std::string& key, const std::string& where,
                     const std::set<std::string>& allowed) const {
    const std::string v = text(object, key, where);
    if (allowed.count(v) == 0) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where + "." + key + " is not one of " + list);
    }
    return v;
  }

 private:
  std::string source_, kind_;
};

}  // namespace perfgate
