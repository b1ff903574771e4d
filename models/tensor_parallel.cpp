// Head splits under tensor parallelism (tensor_parallel.h).
#include "models/tensor_parallel.h"

namespace rlsim {

std::string tensor_parallel_problem(const ModelArch& model, int tp) {
  const AttentionConfig& a = model.attention;
  if (a.q_heads % tp != 0)
    return model.name + "'s " + std::to_string(a.q_heads) + " query heads do not divide over tp " +
           std::to_string(tp) + " (each GPU takes whole heads)";
  if (a.kind == AttentionKind::mla || a.kv_heads <= 0) return "";
  if (a.kv_heads % tp != 0 && tp % a.kv_heads != 0)
    return model.name + "'s " + std::to_string(a.kv_heads) + " K/V heads neither divide over tp " +
           std::to_string(tp) + " nor replicate evenly onto it (tp a multiple of " +
           std::to_string(a.kv_heads) + ")";
  return "";
}

std::vector<int> tensor_parallel_degrees(const ModelArch& model, int max_tp) {
  std::vector<int> degrees;
  for (int tp = 1; tp <= max_tp; ++tp)
    if (tensor_parallel_problem(model, tp).empty()) degrees.push_back(tp);
  return degrees;
}

std::string tensor_parallel_degrees_text(const ModelArch& model, int max_tp) {
  std::string text;
  for (int tp : tensor_parallel_degrees(model, max_tp))
    text += (text.empty() ? "" : ", ") + std::to_string(tp);
  return text;
}

std::string head_grouping_problem(int q_heads, int kv_heads) {
  if (kv_heads > q_heads)
    return "more K/V heads (" + std::to_string(kv_heads) + ") than query heads (" + std::to_string(q_heads) +
           "): each K/V head serves one or more query heads";
  if (q_heads % kv_heads != 0)
    return std::to_string(q_heads) + " query heads do not group evenly over " + std::to_string(kv_heads) +
           " K/V heads";
  return "";
}

}  // namespace rlsim
