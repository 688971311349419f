//===- cubin_attrs.cpp - What cudaFuncGetAttributes reads from a cubin -----===//
#include "cubin_attrs.h"

#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

#include <map>

namespace gmem {

namespace {

using ELF = llvm::object::ELF64LEFile;

// .nv.info entries: a format byte, an attribute byte, then a 16-bit value
// (formats 1 to 3) or a 16-bit size and that many bytes (format 4).
constexpr uint8_t FormatSized = 4;
constexpr uint8_t MaxThreads = 0x05, FrameSize = 0x11, RegCount = 0x2f;

/// Calls Fn(attribute, data) for each sized entry of an .nv.info section.
template <class F> void forEachEntry(llvm::ArrayRef<uint8_t> Info, F Fn) {
  size_t I = 0;
  while (I + 4 <= Info.size()) {
    const uint8_t Format = Info[I], Attr = Info[I + 1];
    if (Format != FormatSized) {
      I += 4;
      continue;
    }
    const size_t Size = llvm::support::endian::read16le(&Info[I + 2]);
    if (I + 4 + Size > Info.size())
      return;
    Fn(Attr, Info.slice(I + 4, Size));
    I += 4 + Size;
  }
}

uint32_t word(llvm::ArrayRef<uint8_t> D, size_t K) {
  return D.size() >= 4 * (K + 1)
             ? llvm::support::endian::read32le(&D[4 * K])
             : 0;
}

} // namespace

std::vector<CubinKernel> readCubinKernels(llvm::StringRef Bytes, unsigned Sm) {
  std::vector<CubinKernel> Out;
  auto File = ELF::create(Bytes);
  if (!File) {
    llvm::consumeError(File.takeError());
    return Out;
  }
  auto Sections = File->sections();
  if (!Sections) {
    llvm::consumeError(Sections.takeError());
    return Out;
  }
  // Entry functions by symbol index; their per-kernel sections by name.
  std::map<uint32_t, size_t> BySymbol;
  std::map<std::string, size_t> ByName;
  for (const auto &S : *Sections) {
    if (S.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto Syms = File->symbols(&S);
    auto Strings = File->getStringTableForSymtab(S);
    if (!Syms || !Strings) {
      llvm::consumeError(Syms.takeError());
      llvm::consumeError(Strings.takeError());
      return Out;
    }
    for (size_t I = 0; I < Syms->size(); ++I) {
      const auto &Sym = (*Syms)[I];
      // STO_CUDA_ENTRY (0x10 in st_other) marks a kernel.
      if (Sym.getType() != llvm::ELF::STT_FUNC || !(Sym.st_other & 0x10))
        continue;
      auto Name = Sym.getName(*Strings);
      if (!Name) {
        llvm::consumeError(Name.takeError());
        continue;
      }
      BySymbol[uint32_t(I)] = Out.size();
      ByName[Name->str()] = Out.size();
      Out.push_back({Name->str()});
    }
  }
  for (const auto &S : *Sections) {
    auto Name = File->getSectionName(S);
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (Name->starts_with(".nv.shared.")) {
      auto It = ByName.find(Name->drop_front(11).str());
      // From sm_90 on, ptxas puts the 1 KiB the system reserves per block
      // at the start of each kernel's shared window (measured: a 1200-byte
      // array is a 2224-byte section; cudaFuncGetAttributes says 1200).
      const uint64_t Reserved = Sm >= 90 ? 1024 : 0;
      if (It != ByName.end())
        Out[It->second].SharedBytes =
            S.sh_size > Reserved ? S.sh_size - Reserved : 0;
      continue;
    }
    if (!Name->starts_with(".nv.info"))
      continue;
    auto Data = File->getSectionContents(S);
    if (!Data) {
      llvm::consumeError(Data.takeError());
      continue;
    }
    if (*Name == ".nv.info") {
      forEachEntry(*Data, [&](uint8_t Attr, llvm::ArrayRef<uint8_t> D) {
        auto It = BySymbol.find(word(D, 0));
        if (It == BySymbol.end())
          return;
        if (Attr == RegCount)
          Out[It->second].Regs = word(D, 1);
        else if (Attr == FrameSize)
          Out[It->second].LocalBytes = word(D, 1);
      });
      continue;
    }
    auto It = ByName.find(Name->drop_front(9).str()); // ".nv.info."
    if (It == ByName.end())
      continue;
    forEachEntry(*Data, [&](uint8_t Attr, llvm::ArrayRef<uint8_t> D) {
      if (Attr == MaxThreads && D.size() >= 12)
        Out[It->second].MaxThreads = word(D, 0) * word(D, 1) * word(D, 2);
    });
  }
  return Out;
}

std::string attributeLines(const std::vector<CubinKernel> &Kernels) {
  std::string Out;
  for (const CubinKernel &K : Kernels)
    Out += K.Mangled + " " + std::to_string(K.Regs) + " " +
           std::to_string(K.SharedBytes) + " " + std::to_string(K.LocalBytes) +
           " " + std::to_string(K.MaxThreads) + "\n";
  return Out;
}

} // namespace gmem
