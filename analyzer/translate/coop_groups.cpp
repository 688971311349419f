//===- coop_groups.cpp - cooperative_groups queries as built-ins ----------===//
//
// cooperative_groups' thread_block, grid_group and thread_block_tile<N>
// answer "who am I" from threadIdx, blockIdx and their dimensions. Their
// bodies live in the CUDA headers, which are not inlined, so the queries
// are translated here by name, to the same expressions the headers compute:
//   thread_block: thread_rank() = x + y Dx + z Dx Dy, num_threads()/size()
//     = Dx Dy Dz, group_index() = blockIdx, thread_index() = threadIdx,
//     dim_threads()/group_dim() = blockDim;
//   grid_group: block_rank() = bx + by Gx + bz Gx Gy, thread_rank() =
//     block_rank() num_threads(block) + thread_rank(block), num_blocks(),
//     num_threads()/size(), block_index() = blockIdx, dim_blocks() = gridDim;
//   thread_block_tile<N> (of a thread block): thread_rank() = block rank
//     mod N, meta_group_rank() = block rank / N, num_threads()/size() = N,
//     meta_group_size() = ceil(block threads / N).
// A thread_group (type-erased) answers as the group it was made from, where
// that is known where it is used (a parameter bound to a thread_block), and
// so does a thread_block_tile<N> made from a tile of a thread_block.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace gmem {

using namespace clang;

namespace {

const IntType U32{32, false}, U64{64, false};

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

ExprPtr builtin(Builtin B, IntType T) { return makeCast(makeBuiltin(B), T); }

/// x + y * X + z * X * Y over three built-ins, in type T.
ExprPtr linear(Builtin Idx, Builtin Dim, IntType T) {
  auto B = [&](Builtin Base, int Off) {
    return builtin(static_cast<Builtin>(static_cast<int>(Base) + Off), T);
  };
  ExprPtr DX = B(Dim, 0), DY = B(Dim, 1);
  return makeBinary(
      Op::Add,
      makeBinary(Op::Add, B(Idx, 0), makeBinary(Op::Mul, B(Idx, 1), DX, T), T),
      makeBinary(Op::Mul, B(Idx, 2), makeBinary(Op::Mul, DX, DY, T), T), T);
}

ExprPtr product(Builtin Dim, IntType T) {
  auto B = [&](int Off) {
    return builtin(static_cast<Builtin>(static_cast<int>(Dim) + Off), T);
  };
  return makeBinary(Op::Mul, makeBinary(Op::Mul, B(0), B(1), T), B(2), T);
}

/// The group kind of a class (or one of its bases), and a tile's size.
struct GroupKind {
  enum { None, Block, Grid, Tile } Kind = None;
  uint64_t TileSize = 0;
  bool TileOfBlock = false; ///< Parent type is thread_block.
};

GroupKind kindOf(QualType T) {
  GroupKind G;
  const auto *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !inCooperativeGroups(RD))
    return G;
  StringRef N = RD->getName();
  if (N == "thread_block")
    G.Kind = GroupKind::Block;
  else if (N == "grid_group")
    G.Kind = GroupKind::Grid;
  else if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD);
           TS && N == "thread_block_tile" &&
           TS->getTemplateArgs().size() >= 1 &&
           TS->getTemplateArgs()[0].getKind() == TemplateArgument::Integral) {
    G.Kind = GroupKind::Tile;
    G.TileSize = TS->getTemplateArgs()[0].getAsIntegral().getZExtValue();
    if (TS->getTemplateArgs().size() >= 2 &&
        TS->getTemplateArgs()[1].getKind() == TemplateArgument::Type)
      G.TileOfBlock =
          kindOf(TS->getTemplateArgs()[1].getAsType()).Kind == GroupKind::Block;
  }
  return G;
}

/// The object a group query is asked of: the member call's object, or the
/// base of the member expression naming a static member function.
const clang::Expr *objectOf(const CallExpr *CE) {
  // Without the conversion to the base class that declares the method.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    return MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  if (const auto *ME =
          dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    return ME->getBase()->IgnoreParenImpCasts();
  return nullptr;
}

} // namespace

QualType BodyTranslator::groupType(const clang::Expr *Obj) const {
  // Through copies and conversions to a base class.
  for (;;) {
    Obj = Obj->IgnoreImplicit()->IgnoreParenImpCasts();
    // A copy, or a conversion from another group type: thread_block_tile<32>
    // made from tiled_partition<32>(block) (through the tile's conversion
    // operator) is still a tile of the block.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Obj);
        MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()) &&
        kindOf(MC->getImplicitObjectArgument()->getType()).Kind !=
            GroupKind::None) {
      Obj = MC->getImplicitObjectArgument();
      continue;
    }
    const auto *CE = dyn_cast<CXXConstructExpr>(Obj);
    if (!CE || CE->getNumArgs() != 1 ||
        (!CE->getConstructor()->isCopyOrMoveConstructor() &&
         kindOf(CE->getArg(0)->getType()).Kind == GroupKind::None))
      break;
    Obj = CE->getArg(0);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      const auto &Types = Frames.back().GroupTypes;
      if (auto It = Types.find(VD); It != Types.end())
        return It->second;
    }
  return Obj->getType();
}

void BodyTranslator::bindGroup(const clang::VarDecl *VD, const clang::Expr *E,
                               Frame &Into) const {
  const auto *RD = VD->getType()->getAsCXXRecordDecl();
  if (!RD || !inCooperativeGroups(RD))
    return;
  QualType T = groupType(E);
  if (kindOf(T).Kind != GroupKind::None)
    Into.GroupTypes[VD] = T;
  else
    Into.GroupTypes.erase(VD);
}

std::optional<int> BodyTranslator::groupDim3(const clang::Expr *E) const {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E->IgnoreParens()))
    CE = dyn_cast<CallExpr>(MT->getSubExpr()->IgnoreImplicit());
  if (!CE)
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E->IgnoreParens()))
      CE = dyn_cast<CallExpr>(BT->getSubExpr());
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || !inCooperativeGroups(MD))
    return std::nullopt;
  const clang::Expr *Obj = objectOf(CE);
  GroupKind G = kindOf(Obj ? groupType(Obj) : QualType());
  StringRef N = MD->getName();
  if (G.Kind == GroupKind::Block) {
    if (N == "group_index")
      return static_cast<int>(Builtin::BlockIdxX);
    if (N == "thread_index")
      return static_cast<int>(Builtin::ThreadIdxX);
    if (N == "dim_threads" || N == "group_dim")
      return static_cast<int>(Builtin::BlockDimX);
  }
  if (G.Kind == GroupKind::Grid) {
    if (N == "block_index")
      return static_cast<int>(Builtin::BlockIdxX);
    if (N == "dim_blocks")
      return static_cast<int>(Builtin::GridDimX);
  }
  return std::nullopt;
}

std::optional<Value> BodyTranslator::cooperativeGroups(const CallExpr *CE,
                                                       const FunctionDecl *FD,
                                                       StmtList &Out) {
  if (!FD || !FD->getIdentifier() || !inCooperativeGroups(FD))
    return std::nullopt;
  StringRef N = FD->getName();
  QualType RT = CE->getType();
  // Making a group has no effect the model counts.
  if (N == "this_thread_block" || N == "this_grid" || N == "tiled_partition") {
    for (const clang::Expr *A : CE->arguments())
      effects(A, Out);
    return Value{unknown("cooperative group object", RT), {}};
  }
  if (N == "sync" || N == "barrier_wait" || N == "barrier_arrive")
    return Value{unknown("no value", RT), {}};
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  const clang::Expr *Obj = MD ? objectOf(CE) : nullptr;
  if (!Obj)
    return std::nullopt;
  GroupKind G = kindOf(groupType(Obj));
  std::optional<IntType> T = intTypeOf(RT);
  if (G.Kind == GroupKind::None || !T)
    return std::nullopt;
  // The object itself is a group handle: nothing to read.
  const IntType W = T->Bits == 64 ? U64 : U32;
  ExprPtr BlockRank = linear(Builtin::ThreadIdxX, Builtin::BlockDimX, W);
  ExprPtr BlockSize = product(Builtin::BlockDimX, W);
  ExprPtr R;
  switch (G.Kind) {
  case GroupKind::Block:
    if (N == "thread_rank")
      R = BlockRank;
    else if (N == "size" || N == "num_threads")
      R = BlockSize;
    break;
  case GroupKind::Grid: {
    ExprPtr Blocks = product(Builtin::GridDimX, U64);
    ExprPtr Rank = linear(Builtin::BlockIdxX, Builtin::GridDimX, U64);
    if (N == "block_rank")
      R = Rank;
    else if (N == "num_blocks")
      R = Blocks;
    else if (N == "thread_rank")
      R = makeBinary(
          Op::Add,
          makeBinary(Op::Mul, Rank, product(Builtin::BlockDimX, U64), U64),
          linear(Builtin::ThreadIdxX, Builtin::BlockDimX, U64), U64);
    else if (N == "size" || N == "num_threads")
      R = makeBinary(Op::Mul, Blocks, product(Builtin::BlockDimX, U64), U64);
    break;
  }
  case GroupKind::Tile: {
    if (G.TileSize == 0 || (G.TileSize & (G.TileSize - 1)))
      break;
    ExprPtr Size = makeConst(static_cast<int64_t>(G.TileSize), W);
    // tile.shfl*(v, b): the warp shuffle within segments of the tile size.
    std::optional<ShuffleMode> Mode =
        N == "shfl"        ? std::optional(ShuffleMode::Idx)
        : N == "shfl_up"   ? std::optional(ShuffleMode::Up)
        : N == "shfl_down" ? std::optional(ShuffleMode::Down)
        : N == "shfl_xor"  ? std::optional(ShuffleMode::Xor)
                           : std::nullopt;
    if (Mode && CE->getNumArgs() == 2 && G.TileSize <= 32) {
      Value V = rvalue(CE->getArg(0), Out);
      Value B = rvalue(CE->getArg(1), Out);
      return Value{makeShuffle(*Mode, castTo(V.E, *T), B.E,
                               makeConst(static_cast<int64_t>(G.TileSize))),
                   {}};
    }
    if (N == "thread_rank")
      R = makeBinary(Op::Rem, BlockRank, Size, W);
    else if (N == "size" || N == "num_threads")
      R = Size;
    else if (N == "meta_group_rank" && G.TileOfBlock)
      R = makeBinary(Op::Div, BlockRank, Size, W);
    else if (N == "meta_group_size" && G.TileOfBlock)
      R = makeBinary(
          Op::Div,
          makeBinary(Op::Add, BlockSize,
                     makeConst(static_cast<int64_t>(G.TileSize - 1), W), W),
          Size, W);
    break;
  }
  case GroupKind::None:
    break;
  }
  if (!R)
    return std::nullopt;
  return Value{castTo(R, *T), {}};
}

} // namespace gmem
