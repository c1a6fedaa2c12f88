#pragma once
// Keeping C++ state alive in a custom autograd node's context until the node is released: saved_data holds
// IValues only, so the shared_ptr travels in an IValue capsule.
#include <ATen/core/ivalue.h>
#include <torch/csrc/autograd/custom_function.h>

#include <memory>
#include <string>

namespace recon::detail {

template <typename T>
struct KeptAlive : torch::CustomClassHolder {
  explicit KeptAlive(std::shared_ptr<T> p) : value(std::move(p)) {}
  std::shared_ptr<T> value;
};

template <typename T>
void keep_alive(torch::autograd::AutogradContext* ctx, const std::string& key, std::shared_ptr<T> value) {
  ctx->saved_data[key] = c10::IValue::make_capsule(c10::make_intrusive<KeptAlive<T>>(std::move(value)));
}

/// The value stored under `key`, or nullptr when there is none.
template <typename T>
std::shared_ptr<T> kept(torch::autograd::AutogradContext* ctx, const std::string& key) {
  auto it = ctx->saved_data.find(key);
  if (it == ctx->saved_data.end()) return nullptr;
  return c10::static_intrusive_pointer_cast<KeptAlive<T>>(it->second.toCapsule())->value;
}

}  // namespace recon::detail
