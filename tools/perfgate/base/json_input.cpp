#include "base/json_input.h"

#include "base/error.h"

#include <set>
#include <vector>

namespace perfgate {
namespace {

struct TooDeep {};
struct DuplicateKey {
  std::string key;
};

// nlohmann's own DOM builder, with two rules added at the events where they apply: a bound on nesting (checked
// when an object or array opens, before anything deeper is read) and one value per key in each object (the
// library keeps the last, so a reviewer could read one value while the gate judges another).
class BoundedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit BoundedDom(nlohmann::json& document) : Base(document) {}

  bool start_object(std::size_t elements) {
    open();
    keys_.emplace_back();
    return Base::start_object(elements);
  }
  bool end_object() {
    keys_.pop_back();
    --depth_;
    return Base::end_object();
  }
  bool start_array(std::size_t elements) {
    open();
    return Base::start_array(elements);
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool key(string_t& name) {
    if (!keys_.back().insert(name).second) throw DuplicateKey{name};
    return Base::key(name);
  }

 private:
  void open() {
    if (++depth_ > kMaxJsonDepth) throw TooDeep{};
  }
  int depth_ = 0;
  std::vector<std::set<std::string>> keys_;  // the keys seen in each open object, innermost last
};

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& source) {
  nlohmann::json document;
  BoundedDom builder(document);
  try {
    nlohmann::json::sax_parse(text, &builder);
  } catch (const TooDeep&) {
    throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const DuplicateKey& d) {
    throw InputError(source + ": the key '" + d.key.substr(0, 80) +
                     "' appears twice in one object (which one counts?)");
  } catch (const nlohmann::json::exception& e) {  // parse errors and out-of-range numbers alike
    throw InputError(source + ": not valid JSON (" + std::string(e.what()).substr(0, 120) + ")");
  }
  return document;
}

std::string json_output_text(const nlohmann::json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<int64_t> exact_int64(const nlohmann::json& value) {
  // nlohmann reads a non-negative integer as unsigned: compare in the type it was read as, never wrapping.
  if (value.is_number_unsigned()) {
    const auto v = value.get<uint64_t>();
    return v <= static_cast<uint64_t>(INT64_MAX) ? std::optional<int64_t>(static_cast<int64_t>(v)) : std::nullopt;
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  return std::nullopt;
}

}  // namespace perfgate
