// What an engine spends outside kernels, measured: the launch latency of empty kernels (eager and
// replayed from a CUDA graph), and one decoder layer forward built from the suite's own GEMMs and
// attention kernels (QKV, attention, output, gate+up and down projections), timed as a whole over a
// step of several layers — eagerly launched and, at decode shapes, replayed from a CUDA graph — beside
// the sum of its kernels each timed alone. `rlsim calibrate` turns the difference into the profile's
// engine.launch_gap_per_layer_s and engine.graph_gap_per_layer_s (calibrate/engine_gap_fitter.h).
#include <algorithm>
#include <memory>

#include "layer_parts.h"

namespace rlsim_kernels {
namespace {

constexpr int kEmptyLaunches = 1000;  // empty kernels per timed run
constexpr int kLayersPerStep = 8;     // decoder layers per timed step (a graph holds one step)

__global__ void empty_kernel() {}

void check_cublas_status(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "rlsim-kernels: %s failed: cuBLAS status %d\n", what, static_cast<int>(status));
  std::exit(1);
}

/// Captures `enqueue` (work on `stream`) into a graph, ready to replay.
cudaGraphExec_t capture(cudaStream_t stream, const std::function<void()>& enqueue) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  RLSIM_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  enqueue();
  RLSIM_CUDA(cudaStreamEndCapture(stream, &graph));
  RLSIM_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  RLSIM_CUDA(cudaGraphDestroy(graph));
  return exec;
}

Point overhead_point(const std::string& op, const std::string& name, const std::string& launch,
                     double seconds) {
  Point p;
  p.op = op;
  p.name = name;
  p.fields.push_back({"launch", "\"" + launch + "\""});
  p.seconds = seconds;
  return p;
}

void measure_launch_latency(Timer& timer, cudaStream_t stream, std::vector<Point>& points) {
  auto launches = [&] {
    for (int i = 0; i < kEmptyLaunches; ++i) empty_kernel<<<1, 32, 0, stream>>>();
  };
  const double eager = timer.median_seconds(launches) / kEmptyLaunches;
  const cudaGraphExec_t graph = capture(stream, launches);
  const double replay =
      timer.median_seconds([&] { RLSIM_CUDA(cudaGraphLaunch(graph, stream)); }) / kEmptyLaunches;
  RLSIM_CUDA(cudaGraphExecDestroy(graph));
  points.push_back(
      overhead_point("launch_latency", "empty_kernel.x" + std::to_string(kEmptyLaunches), "stream", eager));
  points.push_back(
      overhead_point("launch_latency", "empty_kernel.x" + std::to_string(kEmptyLaunches), "graph", replay));
}

/// A decoder layer of a dense model at tensor parallelism 1: `tokens` rows through the four
/// projections, attention over `context` positions (decode: `tokens` sequences of one new token;
/// prefill: one sequence of `tokens`).
class DecoderLayer {
 public:
  DecoderLayer(cublasLtHandle_t lt, cublasHandle_t blas, const DenseModel& m, bool decode, int tokens,
               int context)
      : decode_(decode) {
    const int q = m.q_heads * m.head_dim, kv = m.kv_heads * m.head_dim;
    const int widest = std::max({q + 2 * kv, 2 * m.ffn, m.hidden});
    RLSIM_CUDA(cudaMalloc(&activations_, static_cast<size_t>(tokens) * widest * 2));
    RLSIM_CUDA(cudaMalloc(&out_, static_cast<size_t>(tokens) * widest * 2));
    RLSIM_CUDA(cudaMalloc(&workspace_, kWorkspaceBytes));
    const int shapes[4][2] = {
        {q + 2 * kv, m.hidden}, {m.hidden, q}, {2 * m.ffn, m.hidden}, {m.hidden, m.ffn}};
    for (const auto& nk : shapes) {
      void* w = nullptr;
      RLSIM_CUDA(cudaMalloc(&w, static_cast<size_t>(nk[0]) * nk[1] * 2));
      fill_random(w, static_cast<size_t>(nk[0]) * nk[1], false);
      weights_.push_back(w);
      gemms_.push_back(std::make_unique<LtGemm>(lt, tokens, nk[0], nk[1], false, activations_, w, out_,
                                                workspace_, kWorkspaceBytes));
    }
    fill_random(activations_, static_cast<size_t>(tokens) * widest, false);
    const AttentionDesign design{m.name, m.q_heads, m.kv_heads, m.head_dim, m.head_dim};
    if (decode)
      decode_attention_ = std::make_unique<DecodeAttention>(design, tokens, context, false);
    else
      prefill_attention_ = std::make_unique<PrefillAttention>(blas, design, tokens);
  }
  ~DecoderLayer() {
    gemms_.clear();
    for (void* p : weights_) cudaFree(p);
    for (void* p : {activations_, out_, workspace_}) cudaFree(p);
  }
  bool valid() const {
    return std::all_of(gemms_.begin(), gemms_.end(), [](const auto& g) { return g->valid(); });
  }
  int kernels() const {
    return static_cast<int>(gemms_.size()) + (decode_ ? DecodeAttention::kernels : PrefillAttention::kernels);
  }
  /// Each part of the layer, in forward order: QKV, attention, output, gate+up, down.
  std::vector<std::function<void(cudaStream_t)>> parts() const {
    std::vector<std::function<void(cudaStream_t)>> out;
    out.push_back([this](cudaStream_t s) { gemms_[0]->enqueue(s); });
    if (decode_)
      out.push_back([this](cudaStream_t s) { decode_attention_->enqueue(s); });
    else
      out.push_back([this](cudaStream_t s) { prefill_attention_->enqueue(s); });
    for (size_t i = 1; i < gemms_.size(); ++i)
      out.push_back([this, i](cudaStream_t s) { gemms_[i]->enqueue(s); });
    return out;
  }

 private:
  static constexpr size_t kWorkspaceBytes = size_t{32} << 20;
  bool decode_;
  void *activations_ = nullptr, *out_ = nullptr, *workspace_ = nullptr;
  std::vector<void*> weights_;
  std::vector<std::unique_ptr<LtGemm>> gemms_;
  std::unique_ptr<DecodeAttention> decode_attention_;
  std::unique_ptr<PrefillAttention> prefill_attention_;
};

Point layer_point(const DenseModel& m, bool decode, int tokens, int context, const std::string& launch,
                  int kernels, double seconds, double kernel_sum) {
  const std::string phase = decode ? "decode" : "prefill";
  Point p = overhead_point("decoder_layer",
                           std::string(m.name) + "." + phase + ".t" + std::to_string(tokens) + "." + launch,
                           launch, seconds);
  p.model = m.name;
  p.fields.push_back({"phase", "\"" + phase + "\""});
  p.fields.push_back({"tokens", std::to_string(tokens)});
  p.fields.push_back({"context", std::to_string(context)});
  p.fields.push_back({"kernels", std::to_string(kernels)});
  p.fields.push_back({"layers_per_step", std::to_string(kLayersPerStep)});
  char sum[40];
  std::snprintf(sum, sizeof sum, "%.9g", kernel_sum);
  p.fields.push_back({"kernel_sum_seconds", sum});
  p.note = "seconds per layer over a step of " + std::to_string(kLayersPerStep) +
           " layers; kernel_sum_seconds: its kernels each timed alone";
  return p;
}

void measure_layer(cublasLtHandle_t lt, cublasHandle_t blas, Timer& timer, cudaStream_t stream,
                   const DenseModel& m, bool decode, int tokens, int context, std::vector<Point>& points) {
  const DecoderLayer layer(lt, blas, m, decode, tokens, context);
  if (!layer.valid()) return;
  const auto parts = layer.parts();
  double kernel_sum = 0.0;
  for (const auto& part : parts) kernel_sum += timer.median_seconds([&] { part(stream); });
  auto step = [&] {
    for (int l = 0; l < kLayersPerStep; ++l) {
      for (const auto& part : parts) part(stream);
    }
  };
  const double eager = timer.median_seconds(step) / kLayersPerStep;
  points.push_back(layer_point(m, decode, tokens, context, "stream", layer.kernels(), eager, kernel_sum));
  if (!decode) return;  // engines capture decode steps; prefill runs eagerly
  const cudaGraphExec_t graph = capture(stream, step);
  const double replay =
      timer.median_seconds([&] { RLSIM_CUDA(cudaGraphLaunch(graph, stream)); }) / kLayersPerStep;
  RLSIM_CUDA(cudaGraphExecDestroy(graph));
  points.push_back(layer_point(m, decode, tokens, context, "graph", layer.kernels(), replay, kernel_sum));
}

}  // namespace

void measure_overheads(const Options& o, Timer& timer, std::vector<Point>& points) {
  // A blocking stream: the timer's events and L2 flushes on the legacy stream order with its work,
  // and unlike the legacy stream it can be captured into a graph.
  cudaStream_t stream;
  RLSIM_CUDA(cudaStreamCreate(&stream));
  cublasLtHandle_t lt;
  cublasHandle_t blas;
  check_cublas_status(cublasLtCreate(&lt), "cublasLtCreate");
  check_cublas_status(cublasCreate(&blas), "cublasCreate");
  measure_launch_latency(timer, stream, points);
  const std::vector<int> batches =
      o.quick ? std::vector<int>{8, 64} : std::vector<int>{1, 8, 32, 64, 128, 256};
  const std::vector<int> prompts = o.quick ? std::vector<int>{1024} : std::vector<int>{512, 1024, 2048, 4096};
  constexpr int kDecodeContext = 2048;
  for (const DenseModel& m : dense_models(true)) {  // one small and one large catalog model
    for (int batch : batches) measure_layer(lt, blas, timer, stream, m, true, batch, kDecodeContext, points);
    for (int len : prompts) measure_layer(lt, blas, timer, stream, m, false, len, len, points);
  }
  cublasDestroy(blas);
  cublasLtDestroy(lt);
  RLSIM_CUDA(cudaStreamDestroy(stream));
  std::fprintf(stderr, "  engine overheads done (%zu points)\n", points.size());
}

}  // namespace rlsim_kernels
