//===- diagnostic_views.cpp - Findings printed through Clang --------------===//
#include "diagnostic_views.h"

#include "baseline.h"
#include "install_paths.h"
#include "rule.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/Sarif.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <map>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>

namespace gmem {

namespace {

/// Files loaded into one SourceManager, and file:line:col -> location.
class Sources {
public:
  explicit Sources(clang::DiagnosticConsumer *Client, bool Color)
      : FM(clang::FileSystemOptions()), Opts(new clang::DiagnosticOptions()),
        Diags(new clang::DiagnosticIDs(), Opts, Client, /*Own=*/false),
        SM(Diags, FM) {
    Opts->ShowColors = Color;
    Diags.setSourceManager(&SM);
  }

  /// Invalid when the file cannot be read or the line is past its end.
  clang::SourceLocation loc(const SourceLoc &L) {
    if (L.File.empty() || !L.Line)
      return {};
    auto It = Ids.find(L.File);
    if (It == Ids.end()) {
      clang::FileID Id;
      if (auto F = FM.getOptionalFileRef(L.File))
        Id = SM.getOrCreateFileID(*F, clang::SrcMgr::C_User);
      It = Ids.emplace(L.File, Id).first;
    }
    if (It->second.isInvalid())
      return {};
    bool Bad = false;
    llvm::StringRef Buf = SM.getBufferData(It->second, &Bad);
    if (Bad || L.Line > size_t(Buf.count('\n')) + 1)
      return {};
    return SM.translateLineCol(It->second, L.Line, std::max(1u, L.Col));
  }

  /// Where D's access ends when the source spells it at L as the model
  /// wrote it (`in[i * n]`): the region a code-scanning alert underlines.
  /// L itself otherwise.
  clang::SourceLocation end(clang::SourceLocation L, const Diagnostic &D) {
    const nlohmann::json &F = D.Figures;
    if (!F.contains("access") || !F["access"].is_string())
      return L;
    std::string Text = F["access"];
    bool Bad = false;
    llvm::StringRef Buf = SM.getBufferData(SM.getFileID(L), &Bad);
    if (Bad || !Buf.substr(SM.getFileOffset(L)).starts_with(Text))
      return L;
    return L.getLocWithOffset(int(Text.size()));
  }

  clang::FileManager FM;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Opts;
  clang::DiagnosticsEngine Diags;
  clang::SourceManager SM;
  std::map<std::string, clang::FileID> Ids;
};

clang::DiagnosticsEngine::Level levelOf(Severity S) {
  switch (S) {
  case Severity::Remark:
    return clang::DiagnosticsEngine::Remark;
  case Severity::Warning:
    return clang::DiagnosticsEngine::Warning;
  case Severity::Error:
    return clang::DiagnosticsEngine::Error;
  }
  return clang::DiagnosticsEngine::Warning;
}

} // namespace

void printClangDiagnostics(const std::vector<Diagnostic> &Ds,
                           llvm::raw_ostream &OS, bool Color, bool Notes) {
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Opts->ShowColors = Color;
  clang::TextDiagnosticPrinter Printer(OS, Opts.get());
  Sources S(&Printer, Color);
  clang::LangOptions LO;
  LO.CUDA = true;
  LO.CPlusPlus = true;
  Printer.BeginSourceFile(LO, nullptr);
  auto Emit = [&](clang::DiagnosticsEngine::Level L, const SourceLoc &Loc,
                  const std::string &Text) {
    unsigned Id = S.Diags.getCustomDiagID(L, "%0");
    clang::SourceLocation SL = S.loc(Loc);
    std::string Msg = Text;
    if (SL.isInvalid() && Loc.Line) // Say where even without the source.
      Msg = Loc.File + ":" + std::to_string(Loc.Line) + ": " + Msg;
    S.Diags.Report(SL, Id) << Msg;
  };
  for (const Diagnostic &D : Ds) {
    Emit(levelOf(D.Level), D.Loc, D.Message + " [" + D.Rule + "]");
    if (!Notes)
      continue;
    for (const DiagNote &N : D.Notes)
      Emit(clang::DiagnosticsEngine::Note, N.Loc, N.Message);
    if (D.Fix)
      Emit(clang::DiagnosticsEngine::Note, D.Loc, fixText(*D.Fix));
  }
  Printer.EndSourceFile();
  OS.flush();
}

static std::string relativeUri(const std::string &Uri,
                               const std::string &Root) {
  if (Uri.rfind(Root, 0) == 0)
    return Uri.substr(Root.size());
  return Uri;
}

/// What identifies a finding across edits, as the baseline's keys do: the
/// rule, the file, and the kernel, operation, array and expression shape of
/// the access (a baseline finding's own key), never a line number. Code
/// scanning matches alerts from one run to the next by it.
static std::string fingerprint(const Diagnostic &D) {
  const nlohmann::json &F = D.Figures;
  auto Str = [&](const char *Field) {
    return F.contains(Field) && F[Field].is_string()
               ? F[Field].get<std::string>()
               : std::string();
  };
  std::string What = Str("key");
  if (What.empty())
    What = Str("kernel") + "|" + Str("space") + " " + Str("op") + " " +
           Str("array") + "|" + expressionShape(Str("access"), Str("array"));
  llvm::SHA256 H;
  H.update(D.Rule + "|" + D.Loc.File + "|" + What);
  return llvm::toHex(H.final(), true).substr(0, 32);
}

void printSarif(const std::vector<Diagnostic> &Ds, llvm::raw_ostream &OS,
                const std::vector<std::string> &Errors) {
  clang::IgnoringDiagConsumer Quiet;
  Sources S(&Quiet, false);
  clang::SarifDocumentWriter W(S.SM);
  W.createRun("gmem-analyze", "gmem-analyze, CUDA memory-access gate",
              GMEM_VERSION);
  const std::string Docs = docsBaseUri();
  std::map<std::string, size_t> RuleIdx;
  std::vector<const RuleInfo *> Rules = allRules();
  for (const RuleInfo *R : baselineRules())
    Rules.push_back(R);
  auto LevelOf = [](Severity Sv) {
    return Sv == Severity::Error     ? clang::SarifResultLevel::Error
           : Sv == Severity::Warning ? clang::SarifResultLevel::Warning
                                     : clang::SarifResultLevel::Note;
  };
  for (const RuleInfo *R : Rules)
    RuleIdx[R->Id] = W.createRule(
        clang::SarifRule::create()
            .setRuleId(R->Id)
            .setName(R->Id)
            .setDescription(R->Short)
            .setHelpURI(Docs + "/docs/checks/" + R->Id + ".md")
            .setDefaultConfiguration(
                clang::SarifReportingConfiguration::create().setLevel(
                    LevelOf(R->Default))));
  for (const Diagnostic &D : Ds) {
    llvm::SmallVector<clang::CharSourceRange, 1> Locs;
    clang::SourceLocation L = S.loc(D.Loc);
    if (L.isValid())
      Locs.push_back(clang::CharSourceRange::getCharRange(L, S.end(L, D)));
    std::string Msg = D.Message;
    if (D.Fix)
      Msg +=
          ". Checked fix: " + D.Fix->Description + " (" + D.Fix->Outcome + ")";
    W.appendResult(clang::SarifResult::create(RuleIdx.at(D.Rule))
                       .setRuleId(D.Rule)
                       .setDiagnosticMessage(Msg)
                       .setLocations(Locs)
                       .setDiagnosticLevel(LevelOf(D.Level)));
  }
  W.endRun();
  llvm::json::Object Doc = W.createDocument();

  // What the writer has no setter for, set in its document: the tool's own
  // page, the rules' full descriptions and help, the results' figures and
  // notes, and paths relative to the current directory, which
  // code-scanning services resolve against the checkout.
  using llvm::json::Array;
  using llvm::json::Object;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string Root = "file://" + std::string(Cwd) + "/";
  Object &Run = *Doc.getArray("runs")->front().getAsObject();
  Run["originalUriBaseIds"] = Object{{"%SRCROOT%", Object{{"uri", Root}}}};
  auto Relative = [&](Object *ArtifactLoc) {
    std::optional<llvm::StringRef> Uri =
        ArtifactLoc ? ArtifactLoc->getString("uri") : std::nullopt;
    if (!Uri)
      return;
    std::string R = relativeUri(Uri->str(), Root);
    if (R != *Uri) {
      (*ArtifactLoc)["uri"] = R;
      (*ArtifactLoc)["uriBaseId"] = "%SRCROOT%";
    }
  };
  if (Array *Artifacts = Run.getArray("artifacts"))
    for (llvm::json::Value &A : *Artifacts)
      Relative(A.getAsObject()->getObject("location"));
  Object &Driver = *Run.getObject("tool")->getObject("driver");
  Driver["informationUri"] = Docs + "/README.md";
  for (llvm::json::Value &RV : *Driver.getArray("rules")) {
    Object &R = *RV.getAsObject();
    const RuleInfo *Info = Rules[RuleIdx.at(R.getString("id")->str())];
    R["shortDescription"] = Object{{"text", Info->Short}};
    R["fullDescription"] = Object{{"text", Info->Full}};
    std::string Help = std::string(Info->Full) + " Fires: " + Info->Threshold +
                       ". Suppress one finding with // NOLINT(" + Info->Id +
                       ") on its line; switch the rule off with --checks=-" +
                       Info->Id + ".";
    R["help"] = Object{{"text", Help}};
  }
  // Whether the run finished, and if not why: what a code-scanning upload
  // shows when the gate stopped on bad input.
  Object Invocation{{"executionSuccessful", Errors.empty()}};
  if (!Errors.empty()) {
    Array Notes;
    for (const std::string &E : Errors)
      Notes.push_back(
          Object{{"level", "error"}, {"message", Object{{"text", E}}}});
    Invocation["toolExecutionNotifications"] = std::move(Notes);
  }
  Run["invocations"] = Array{std::move(Invocation)};
  Array NoResults;
  Array &Results =
      Run.getArray("results") ? *Run.getArray("results") : NoResults;
  for (size_t I = 0; I < Ds.size() && I < Results.size(); ++I) {
    Object &R = *Results[I].getAsObject();
    // A finding with no place in a file has no locations.
    if (Array *Locs = R.getArray("locations"))
      for (llvm::json::Value &L : *Locs)
        if (Object *Physical = L.getAsObject()->getObject("physicalLocation"))
          Relative(Physical->getObject("artifactLocation"));
    // The figures are nlohmann's (model/diagnostic.h): always valid JSON.
    R["properties"] = llvm::cantFail(llvm::json::parse(Ds[I].Figures.dump()));
    R["partialFingerprints"] = Object{{"gmemFinding/v1", fingerprint(Ds[I])}};
    Array Related;
    for (const DiagNote &N : Ds[I].Notes) {
      Object Rel{{"id", int64_t(Related.size())},
                 {"message", Object{{"text", N.Message}}}};
      if (N.Loc.Line)
        Rel["physicalLocation"] =
            Object{{"artifactLocation", Object{{"uri", N.Loc.File}}},
                   {"region",
                    Object{{"startLine", int64_t(N.Loc.Line)},
                           {"startColumn", int64_t(std::max(1u, N.Loc.Col))}}}};
      Related.push_back(std::move(Rel));
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  OS.flush();
}

llvm::Error applyFixes(const std::vector<Diagnostic> &Ds, unsigned &Applied,
                       unsigned &Offered) {
  clang::IgnoringDiagConsumer Quiet;
  Sources S(&Quiet, false);
  std::map<std::string, clang::tooling::Replacements> ByFile;
  std::set<std::tuple<std::string, unsigned, std::string>> Distinct;
  Applied = Offered = 0;
  for (const Diagnostic &D : Ds) {
    if (!D.Fix || !D.Fix->Edit)
      continue;
    clang::SourceLocation At = S.loc(D.Fix->Edit->At);
    if (At.isInvalid())
      continue;
    clang::tooling::Replacement R(S.SM, At, 0, D.Fix->Edit->Insert);
    if (!Distinct
             .insert({R.getFilePath().str(), R.getOffset(),
                      R.getReplacementText().str()})
             .second)
      continue;
    ++Offered;
    if (llvm::Error E = ByFile[R.getFilePath().str()].add(R))
      llvm::consumeError(std::move(E)); // Overlaps another: left out.
  }
  for (const auto &[File, Rs] : ByFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return llvm::createStringError(File + ": cannot read: " +
                                     Buf.getError().message());
    auto Code = clang::tooling::applyAllReplacements((*Buf)->getBuffer(), Rs);
    if (!Code)
      return Code.takeError();
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    if (EC)
      return llvm::createStringError(File + ": cannot write: " + EC.message());
    Out << *Code;
    Applied += unsigned(Rs.size());
  }
  return llvm::Error::success();
}

void printExportFixes(const std::vector<Diagnostic> &Ds,
                      llvm::raw_ostream &OS) {
  clang::IgnoringDiagConsumer Quiet;
  Sources S(&Quiet, false);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  clang::tooling::TranslationUnitDiagnostics TU;
  for (const Diagnostic &D : Ds) {
    clang::SourceLocation L = S.loc(D.Loc);
    if (L.isInvalid())
      continue; // clang-tidy's format needs a file offset.
    using TD = clang::tooling::Diagnostic;
    clang::tooling::DiagnosticMessage Msg(D.Message, S.SM, L);
    if (D.Fix && D.Fix->Edit) {
      clang::SourceLocation At = S.loc(D.Fix->Edit->At);
      if (At.isValid()) {
        clang::tooling::Replacement R(S.SM, At, 0, D.Fix->Edit->Insert);
        // One edit per finding: adding it cannot conflict.
        llvm::consumeError(Msg.Fix[R.getFilePath()].add(R));
      }
    }
    TU.Diagnostics.emplace_back(
        D.Rule, Msg, llvm::SmallVector<clang::tooling::DiagnosticMessage, 1>(),
        D.Level == Severity::Error     ? TD::Error
        : D.Level == Severity::Warning ? TD::Warning
                                       : TD::Remark,
        Cwd.str());
  }
  llvm::yaml::Output Out(OS);
  Out << TU;
  OS.flush();
}

} // namespace gmem
