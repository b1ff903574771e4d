// `rlsim explain [FIELD] [--markdown]`: what a scenario field means, its unit, default, range and
// which registry entry reads it, from the loaders' own declarations (tools/cli/field_reference.h).
#include <iostream>

#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/field_reference.h"

namespace rlsim {
namespace {

class ExplainCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("explain", "What a scenario field means: unit, default, range, owner");
    sub->add_option("FIELD", field_,
                    "A field (training.sequence_tokens; list items as cluster.pools.nodes) or a section "
                    "(workload); none: every field");
    sub->add_flag("--markdown", markdown_, "Print every field as the Markdown of docs/scenario-reference.md");
    sub->footer(
        "Each field is declared once, where its loader reads it; a plug-in's parameters (policy,\n"
        "router, scheduler, cost model) come from its registry entry. An unknown field exits 2 with\n"
        "the nearest names.\n\nExamples:\n  rlsim explain training.sequence_tokens\n"
        "  rlsim explain workload\n  rlsim explain --markdown > docs/scenario-reference.md");
    return sub;
  }

  int run() override {
    const FieldReference reference = gather_field_reference();
    if (markdown_) {
      if (!field_.empty())
        throw InputError(flag_location("--markdown"), "--markdown prints every field; give no FIELD");
      std::cout << reference_markdown(reference);
      return kExitOk;
    }
    if (field_.empty()) {
      std::cout << reference_text(reference.fields);
      return kExitOk;
    }
    const std::vector<FieldDoc> found = explain_query(reference, field_);
    for (size_t i = 0; i < found.size(); ++i) std::cout << (i ? "\n" : "") << field_text(found[i]);
    return kExitOk;
  }

 private:
  std::string field_;
  bool markdown_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ExplainCommand, "explain", 30);
}  // namespace rlsim
