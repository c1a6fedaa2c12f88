#include "recon/optimization_switches.h"

#include <sstream>
#include <stdexcept>

namespace recon {
namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The table's rows with the member each name reaches: built once from RECON_OPTIMIZATION_SWITCHES.
struct SwitchRow {
  SwitchInfo info;
  bool OptimizationSwitches::*member;
};

const std::vector<SwitchRow>& rows() {
  static const std::vector<SwitchRow> kRows = [] {
    std::vector<SwitchRow> r;
#define RECON_SWITCH_ROW(name, on, where, needs, doc) \
    r.push_back({{#name, on, SwitchDevices::where, split_words(needs), doc}, &OptimizationSwitches::name});
    RECON_OPTIMIZATION_SWITCHES(RECON_SWITCH_ROW)
#undef RECON_SWITCH_ROW
    // A need must name a switch listed before it, which also rules out cycles.
    for (size_t i = 0; i < r.size(); ++i) {
      for (const auto& need : r[i].info.needs) {
        bool earlier = false;
        for (size_t j = 0; j < i; ++j) earlier = earlier || r[j].info.name == need;
        if (!earlier) throw std::logic_error("switch " + r[i].info.name + " needs '" + need + "', not an earlier switch");
      }
    }
    return r;
  }();
  return kRows;
}

const SwitchRow& row(const std::string& name) {
  for (const auto& r : rows()) {
    if (r.info.name == name) return r;
  }
  throw std::invalid_argument("unknown optimisation switch '" + name + "'");
}

}  // namespace

const std::vector<SwitchInfo>& switch_table() {
  static const std::vector<SwitchInfo> kTable = [] {
    std::vector<SwitchInfo> t;
    for (const auto& r : rows()) t.push_back(r.info);
    return t;
  }();
  return kTable;
}

OptimizationSwitches OptimizationSwitches::none() {
  OptimizationSwitches s;
  for (const auto& r : rows()) s.*r.member = false;
  return s;
}

const std::vector<std::string>& OptimizationSwitches::names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> n;
    for (const auto& r : rows()) n.push_back(r.info.name);
    return n;
  }();
  return kNames;
}

bool& OptimizationSwitches::by_name(const std::string& name) { return this->*row(name).member; }
bool OptimizationSwitches::by_name(const std::string& name) const { return this->*row(name).member; }

OptimizationSwitches OptimizationSwitches::without(const std::string& name) const {
  OptimizationSwitches s = *this;
  s.*row(name).member = false;
  // Needs name earlier switches only, so one pass in table order reaches every dependent, however indirect.
  for (const auto& r : rows()) {
    for (const auto& need : r.info.needs) {
      if (!s.by_name(need)) s.*r.member = false;
    }
  }
  return s;
}

OptimizationSwitches OptimizationSwitches::toggled(const std::string& name) const {
  if (by_name(name)) return without(name);
  OptimizationSwitches s = *this;
  s.*row(name).member = true;
  return s;
}

OptimizationSwitches OptimizationSwitches::on_cuda(bool own_kernels) const {
  OptimizationSwitches s = *this;
  for (const auto& r : rows()) {
    const bool runs = r.info.devices == SwitchDevices::any_device ||
                      (r.info.devices == SwitchDevices::own_cuda_kernel && own_kernels);
    if (!runs && s.*r.member) s = s.without(r.info.name);
  }
  return s;
}

std::string unmet_switch_need(const OptimizationSwitches& switches) {
  for (const auto& r : rows()) {
    if (!(switches.*r.member)) continue;
    for (const auto& need : r.info.needs) {
      if (!switches.by_name(need)) return r.info.name + " needs " + need + ", which is off";
    }
  }
  return "";
}

}  // namespace recon
