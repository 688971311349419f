//===- build_flags.cpp - A build's flags, for nvcc and for Clang --------===//
#include "build_flags.h"

#include "clang/Driver/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"

#include <algorithm>
#include <iterator>

namespace gmem {

namespace {

/// nvcc's options that take a value, joined by '=' or as the next argument.
const char *const NvccValued[] = {"-Xcompiler",
                                  "--compiler-options",
                                  "-Xptxas",
                                  "--ptxas-options",
                                  "-Xlinker",
                                  "--linker-options",
                                  "-Xnvlink",
                                  "--nvlink-options",
                                  "-Xcudafe",
                                  "-Xarchive",
                                  "-maxrregcount",
                                  "--maxrregcount",
                                  "-default-stream",
                                  "--default-stream",
                                  "-ccbin",
                                  "--compiler-bindir",
                                  "-cudart",
                                  "--cudart",
                                  "-rdc",
                                  "--relocatable-device-code",
                                  "-ftz",
                                  "--ftz",
                                  "-prec-div",
                                  "--prec-div",
                                  "-prec-sqrt",
                                  "--prec-sqrt",
                                  "-fmad",
                                  "--fmad",
                                  "-t",
                                  "--threads",
                                  "-split-compile",
                                  "--split-compile",
                                  "-diag-suppress",
                                  "--diag-suppress",
                                  "-x",
                                  "--x",
                                  "-ewp"};

/// nvcc's options without a value.
const char *const NvccPlain[] = {"--expt-relaxed-constexpr",
                                 "-expt-relaxed-constexpr",
                                 "--expt-extended-lambda",
                                 "-expt-extended-lambda",
                                 "--extended-lambda",
                                 "-extended-lambda",
                                 "-lineinfo",
                                 "--generate-line-info",
                                 "-G",
                                 "--device-debug",
                                 "--use_fast_math",
                                 "-use_fast_math",
                                 "-m64",
                                 "-res-usage",
                                 "--resource-usage",
                                 "-dc",
                                 "--device-c",
                                 "-dw",
                                 "-dlink",
                                 "-keep",
                                 "--keep",
                                 "-Wno-deprecated-gpu-targets",
                                 "-src-in-ptx",
                                 "-restrict",
                                 "--restrict",
                                 "-g",
                                 "-O",
                                 "-O0",
                                 "-O1",
                                 "-O2",
                                 "-O3",
                                 "--disable-warnings",
                                 "-Werror=all-warnings"};

/// What gmem sets itself for its build: given to neither.
const char *const GmemValued[] = {
    "-arch", "--gpu-architecture", "-gencode", "--generate-code",
    "-code", "--gpu-code",         "-o",       "--output-file"};
const char *const GmemPlain[] = {"-c", "--compile", "-cubin", "-ptx",
                                 "-fatbin"};

template <size_t N>
bool among(const char *const (&List)[N], llvm::StringRef A) {
  return std::find(std::begin(List), std::end(List), A) != std::end(List);
}

/// A valued option of List, as "-opt=value" or "-opt" (value next).
template <size_t N>
bool valued(const char *const (&List)[N], llvm::StringRef A, bool &Joined) {
  for (const char *Name : List) {
    if (A == Name) {
      Joined = false;
      return true;
    }
    if (A.starts_with(std::string(Name) + "=")) {
      Joined = true;
      return true;
    }
  }
  return false;
}

/// Whether Clang's driver knows A (an option, not a file).
bool clangKnows(llvm::StringRef A) {
  const llvm::opt::OptTable &T = clang::driver::getDriverOptTable();
  unsigned MissingIndex = 0, MissingCount = 0;
  const char *Argv[] = {A.data()};
  llvm::opt::InputArgList L =
      T.ParseArgs(Argv, MissingIndex, MissingCount,
                  llvm::opt::Visibility(clang::driver::options::ClangOption));
  return !L.hasArg(clang::driver::options::OPT_UNKNOWN);
}

} // namespace

std::string buildArch(const std::string &Arch, const BuildFlags &F) {
  return !F.ArchVariant.empty() &&
                 F.ArchVariant.substr(0, F.ArchVariant.size() - 1) == Arch
             ? F.ArchVariant
             : Arch;
}

BuildFlags splitBuildFlags(const std::vector<std::string> &Args) {
  BuildFlags F;
  std::vector<std::string> ForClang;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    llvm::StringRef S(A);
    auto Value = [&](bool Joined) {
      return Joined ? S.split('=').second.str()
                    : (I + 1 < Args.size() ? Args[++I] : std::string());
    };
    bool Joined = false;
    if (valued(GmemValued, S, Joined)) {
      const std::string V = Value(Joined);
      // sm_90a, compute_90a (or the f family's): the arch-specific target.
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(V).split(Parts, ',');
      for (llvm::StringRef P : Parts) {
        if (P.contains('='))
          P = P.split('=').second;
        P = P.trim("[]");
        if ((P.consume_front("sm_") || P.consume_front("compute_")) &&
            P.size() > 1 && (P.back() == 'a' || P.back() == 'f') &&
            llvm::all_of(P.drop_back(), llvm::isDigit))
          F.ArchVariant = "sm_" + P.str();
      }
      F.Notes.push_back(A + (Joined ? "" : " " + V) +
                        ": gmem sets this for its own build (--arch); left "
                        "out");
    } else if (among(GmemPlain, S)) {
      F.Notes.push_back(A + ": gmem builds the whole program; left out");
    } else if (valued(NvccValued, S, Joined)) {
      const std::string Name = Joined ? S.split('=').first.str() : A;
      const std::string V = Value(Joined);
      F.NvccOnly.insert(F.NvccOnly.end(), {Name, V});
      F.Notes.push_back(Name + " " + V + ": nvcc's option, given to nvcc only");
    } else if (among(NvccPlain, S)) {
      F.NvccOnly.push_back(A);
      F.Notes.push_back(A + ": nvcc's option, given to nvcc only");
    } else if ((S.starts_with("-l") || S.starts_with("-L")) && S.size() > 2) {
      F.NvccOnly.push_back(A); // Linking: nvcc's alone.
    } else if (S.starts_with("-Wl,")) {
      F.NvccOnly.insert(F.NvccOnly.end(), {"-Xlinker", S.drop_front(4).str()});
      F.Notes.push_back(A + ": given to nvcc as -Xlinker " +
                        S.drop_front(4).str());
    } else if (S == "-fopenmp" || S == "-fPIC" || S == "-pthread") {
      // Host compiler flags nvcc does not take itself.
      F.NvccOnly.insert(F.NvccOnly.end(), {"-Xcompiler", A});
      F.Notes.push_back(A + ": given to nvcc as -Xcompiler " + A +
                        ", not to Clang");
    } else if (!S.starts_with("-") &&
               (S.ends_with(".o") || S.ends_with(".a") || S.ends_with(".so") ||
                S.contains(".so.") || S.ends_with(".obj") ||
                S.ends_with(".lib"))) {
      F.LinkInputs.push_back(A);
      F.Notes.push_back(A + ": a linker input, given to nvcc after the "
                            "sources");
    } else if (!S.starts_with("-") &&
               (S.ends_with(".cu") || S.ends_with(".cpp") ||
                S.ends_with(".cc") || S.ends_with(".cxx") ||
                S.ends_with(".c"))) {
      // Clang would take it for a second input of the parse.
      F.Sources.push_back(A);
      F.Notes.push_back(A + ": a source file, read and built with the "
                            "others");
    } else if (S.starts_with("-") && !clangKnows(S)) {
      F.NvccOnly.push_back(A);
      F.Notes.push_back(A + ": not a Clang option, given to nvcc only");
    } else {
      ForClang.push_back(A);
    }
  }
  F.Clang = std::move(ForClang);
  return F;
}

bool relocatableDeviceCode(const std::vector<std::string> &NvccFlags) {
  for (size_t I = 0; I < NvccFlags.size(); ++I) {
    const std::string &F = NvccFlags[I];
    if (F == "-dc" || F == "--device-c")
      return true;
    for (const std::string Name : {"-rdc", "--relocatable-device-code"}) {
      std::string Value;
      if (F == Name && I + 1 < NvccFlags.size())
        Value = NvccFlags[I + 1];
      else if (F.rfind(Name + "=", 0) == 0)
        Value = F.substr(Name.size() + 1);
      if (Value == "true")
        return true;
    }
  }
  return false;
}

} // namespace gmem
