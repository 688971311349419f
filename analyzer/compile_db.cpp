//===- compile_db.cpp - A file's arguments from compile_commands.json -----===//
#include "compile_db.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>
#include <set>

namespace gmem {

static std::string absolute(const std::string &P, const std::string &Dir) {
  if (P.empty() || llvm::sys::path::is_absolute(P))
    return P;
  llvm::SmallString<256> S(Dir);
  llvm::sys::path::append(S, P);
  return std::string(S);
}

static void translate(const std::vector<std::string> &In, size_t Begin,
                      const std::string &Dir, std::vector<std::string> &Out,
                      unsigned Depth) {
  // Flags of nvcc (and the host compiler) that take the next argument and
  // mean nothing for the analysis.
  static const std::set<std::string> DropWithValue = {
      "-o",
      "-x",
      "-Xcompiler",
      "-Xptxas",
      "-Xlinker",
      "-Xnvlink",
      "-Xarchive",
      "-ccbin",
      "--compiler-bindir",
      "-gencode",
      "--generate-code",
      "-arch",
      "--gpu-architecture",
      "-code",
      "--gpu-code",
      "-MF",
      "-MT",
      "-MQ",
      "-rdc",
      "--relocatable-device-code",
      "-maxrregcount",
      "--maxrregcount",
      "-t",
      "--threads",
      "-Werror",
      "--diag-suppress",
      "-diag-suppress"};
  static const std::set<std::string> KeepWithValue = {
      "-I", "-isystem", "-iquote", "-idirafter", "-include", "-D", "-U"};
  static const std::set<std::string> PathValued = {"-I", "-isystem", "-iquote",
                                                   "-idirafter", "-include"};
  for (size_t I = Begin; I < In.size(); ++I) {
    const std::string &A = In[I];
    if (A == "--options-file" || A == "-optf") {
      // CMake passes nvcc its include paths in a response file.
      if (I + 1 >= In.size() || Depth > 4)
        break;
      auto Buf = llvm::MemoryBuffer::getFile(absolute(In[++I], Dir));
      if (!Buf)
        continue;
      llvm::BumpPtrAllocator Alloc;
      llvm::StringSaver Saver(Alloc);
      llvm::SmallVector<const char *, 32> Toks;
      llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Toks);
      std::vector<std::string> Sub(Toks.begin(), Toks.end());
      translate(Sub, 0, Dir, Out, Depth + 1);
      continue;
    }
    if (DropWithValue.count(A)) {
      ++I;
      continue;
    }
    if (KeepWithValue.count(A)) {
      if (I + 1 < In.size()) {
        Out.push_back(A);
        Out.push_back(PathValued.count(A) ? absolute(In[++I], Dir) : In[++I]);
      }
      continue;
    }
    if (A.rfind("-I", 0) == 0) {
      Out.push_back("-I" + absolute(A.substr(2), Dir));
      continue;
    }
    if (A.rfind("-isystem=", 0) == 0) {
      Out.push_back("-isystem");
      Out.push_back(absolute(A.substr(9), Dir));
      continue;
    }
    if (A.rfind("-D", 0) == 0 || A.rfind("-U", 0) == 0 ||
        A.rfind("-std=", 0) == 0) {
      Out.push_back(A);
      continue;
    }
    if (A.rfind("--std=", 0) == 0) {
      Out.push_back(A.substr(1));
      continue;
    }
    // Everything else is code generation, host-compiler or dependency
    // output: -gencode=..., -arch=sm_90, -rdc=true, -Xcompiler=-fPIC,
    // --use_fast_math, --expt-relaxed-constexpr, -O3, -g, -c, the source.
  }
}

std::vector<std::string>
translateNvccCommand(const std::vector<std::string> &CommandLine,
                     const std::string &Directory) {
  std::vector<std::string> Out;
  translate(CommandLine, 1, Directory, Out, 0);
  return Out;
}

static llvm::Expected<std::unique_ptr<clang::tooling::JSONCompilationDatabase>>
loadDatabase(const std::string &BuildDir) {
  std::string Why;
  std::string DbPath = BuildDir + "/compile_commands.json";
  auto Db = clang::tooling::JSONCompilationDatabase::loadFromFile(
      DbPath, Why, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Db)
    return llvm::createStringError(
        DbPath + ": cannot read the compilation database (" + Why +
        "); configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
  return std::move(Db);
}

llvm::Expected<std::vector<std::string>>
cudaFilesOfDatabase(const std::string &BuildDir) {
  auto Db = loadDatabase(BuildDir);
  if (!Db)
    return Db.takeError();
  std::vector<std::string> Files;
  for (const std::string &F : (*Db)->getAllFiles())
    if (llvm::StringRef(F).ends_with(".cu"))
      Files.push_back(F);
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  if (Files.empty())
    return llvm::createStringError(BuildDir +
                                   "/compile_commands.json compiles no .cu "
                                   "file; name the files to analyse");
  return Files;
}

llvm::Expected<std::vector<std::string>>
argumentsFromDatabase(const std::string &BuildDir, const std::string &File) {
  std::string DbPath = BuildDir + "/compile_commands.json";
  auto Db = loadDatabase(BuildDir);
  if (!Db)
    return Db.takeError();
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  auto Cmds = (*Db)->getCompileCommands(Abs);
  if (Cmds.empty())
    return llvm::createStringError(
        File + ": no entry in " + DbPath +
        "; build it as part of the project or name it without -p");
  return translateNvccCommand(Cmds.front().CommandLine, Cmds.front().Directory);
}

} // namespace gmem
