//===- body_translator.h - One kernel body to the kernel model ------------===//
//
// Internal to the analyzer. BodyTranslator walks a kernel's statements in
// program order and emits model statements: local integer and pointer
// variables become slots, every global or shared memory access becomes an
// Access at the point it executes, __device__ calls are inlined. Anything it
// cannot model becomes an Unknown expression with a reason, never a guess.
//
// The implementation is split by concern: body_translator.cpp (state, slots,
// locations, warnings), expr_translator.cpp (rvalues), access_translator.cpp
// (lvalues, loads, stores, atomics), stmt_translator.cpp (statements, calls).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_BODY_TRANSLATOR_H
#define GMEM_ANALYZER_BODY_TRANSLATOR_H

#include "model.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {

using StmtList = std::vector<Stmt>;

/// The model's types of a condition and of a byte address.
inline const IntType BoolT{1, false};
inline const IntType AddrT{64, false};

/// Which memory a pointer value points into.
struct PtrOrigin {
  enum KindT : uint8_t {
    None,     ///< Not a pointer (or the null pointer).
    Global,   ///< A kernel parameter's allocation or other global memory.
    Shared,   ///< A __shared__ variable.
    Local,    ///< A local variable or register array: not a memory access.
    Constant, ///< A __constant__ variable: not modelled.
    Unknown,  ///< Cannot tell (mixed origins, integer casts, ...).
  } Kind = None;
  std::string Array; ///< The allocation's name: parameter or shared array.
  int SharedIdx = -1;
  std::string Reason; ///< Unknown: why.

  static PtrOrigin merge(const PtrOrigin &A, const PtrOrigin &B);
};

/// A translated prvalue: an integer value, or a pointer's byte address.
struct Value {
  ExprPtr E;
  PtrOrigin Ptr; ///< Kind != None for pointers (and integers made of them).
};

/// A translated glvalue: where an object lives.
struct LValue {
  enum KindT : uint8_t {
    Memory,   ///< Global or shared memory at Addr.
    Slot,     ///< A local integer or pointer variable.
    ParamRef, ///< An unmodified kernel parameter.
    Register, ///< Other thread-private storage (floats, structs, arrays).
    Computed, ///< A value with no storage (std::min's reference result).
    Constant, ///< __constant__ memory: reads are not modelled.
  } Kind = Register;
  ExprPtr Addr;      ///< Memory: byte address.
  PtrOrigin Where;   ///< Memory: space and allocation.
  int SlotIdx = -1;  ///< Slot.
  int ParamIdx = -1; ///< ParamRef.
  Value Val;         ///< Computed.
  Why Reason; ///< Register/Constant: what it is, and whether it was loaded.
  clang::QualType Ty;                ///< The object's type.
  const clang::Expr *Site = nullptr; ///< Where it is named, for messages.
};

class BodyTranslator {
public:
  BodyTranslator(clang::ASTContext &Ctx, Kernel &K,
                 const std::map<const clang::VarDecl *, int> &SharedIdx);

  /// Translates FD's body into K.Body. Params must already be in K.Params.
  void translateKernel(const clang::FunctionDecl *FD);

  // ---- Types and values (body_translator.cpp).
  std::optional<IntType> intTypeOf(clang::QualType T) const;
  ExprPtr unknown(const std::string &Reason, clang::QualType T) const;
  ExprPtr unknown(const Why &W, clang::QualType T) const;
  static bool hasUnknown(const ExprPtr &E, Why *Reason = nullptr);
  ExprPtr castTo(ExprPtr E, IntType T) const;
  ExprPtr binary(Op K, ExprPtr L, ExprPtr R, IntType T) const;
  ExprPtr unary(Op K, ExprPtr E, IntType T) const;
  ExprPtr toBool(ExprPtr E) const;
  uint64_t sizeOf(clang::QualType T) const;

  // ---- Slots.
  int newSlot(const std::string &Name, IntType T);
  void assign(int Slot, const Value &V, const clang::Stmt *Where,
              StmtList &Out);
  /// V reads slots that statements emitted into Out at or after Pos write:
  /// snapshot V into a temporary emitted at Pos.
  void protect(Value &V, StmtList &Out, size_t Pos);
  /// The same when Later will run after V is computed but before it is
  /// used: the snapshot goes at the end of Out.
  void protectAgainst(Value &V, StmtList &Out, const StmtList &Later);

  // ---- Messages and locations.
  SourceLoc locOf(const clang::Stmt *S) const;
  SourceLoc locOf(clang::SourceLocation L) const;
  std::string textOf(const clang::Stmt *S) const;
  std::string where(const clang::Stmt *S) const; ///< "file:line"
  void warn(const clang::Stmt *S, const std::string &Msg);
  void warnAt(clang::SourceLocation L, const std::string &Msg);
  void warnIfUnknown(const ExprPtr &E, const clang::Stmt *S,
                     const std::string &What);

  // ---- Expressions (expr_translator.cpp).
  Value rvalue(const clang::Expr *E, StmtList &Out);
  /// A condition: its accesses go to Out, the result is a bool expression.
  ExprPtr condition(const clang::Expr *E, StmtList &Out);
  /// Evaluates E for its side effects only (statement level).
  void effects(const clang::Expr *E, StmtList &Out);

  // ---- Memory (access_translator.cpp).
  LValue lvalue(const clang::Expr *E, StmtList &Out);
  Value load(const LValue &L, StmtList &Out);
  void store(const LValue &L, const Value &V, StmtList &Out);
  /// Pointer arithmetic: P + Index elements of ElemTy (Sub: minus).
  Value pointerAdd(const Value &P, const Value &Index, clang::QualType ElemTy,
                   bool Sub = false) const;
  /// The object a pointer value points to.
  LValue deref(const Value &P, clang::QualType Pointee,
               const clang::Expr *Site) const;
  /// Whether the value of E (an atomic call) is discarded.
  bool resultUnused(const clang::Expr *E) const;
  /// Recognised memory intrinsics (__ldg, atomics, ...); nullopt otherwise.
  std::optional<Value> memoryIntrinsic(const clang::CallExpr *CE,
                                       const clang::FunctionDecl *FD,
                                       StmtList &Out);
  LValue declRef(const clang::DeclRefExpr *DRE);
  LValue varRef(const clang::ValueDecl *D, const clang::Expr *Site);
  /// A pointer to L's object (&x, array decay).
  Value addressOf(const LValue &L) const;
  /// Keeps L's address in a fresh slot so later changes of the slots it
  /// reads do not move it (reference bindings).
  LValue pin(const LValue &L, StmtList &Out);

  // ---- Statements and calls (stmt_translator.cpp).
  void stmt(const clang::Stmt *S, StmtList &Out);
  /// A call: intrinsic, min/max, inlined __device__ function, or unknown.
  /// Reference results come back as an lvalue in RefResult.
  Value call(const clang::CallExpr *CE, StmtList &Out,
             LValue *RefResult = nullptr);

private:
  struct Frame {
    const clang::FunctionDecl *FD = nullptr;
    std::map<const clang::VarDecl *, int> Slots;
    std::map<const clang::VarDecl *, LValue> Refs;
    /// Local objects (structs, vectors) copied from memory: the reason
    /// their members are unknown ("depends on data loaded by ...").
    std::map<const clang::VarDecl *, Why> LoadedFrom;
    int ResultSlot = -1; ///< Inlined function's value (or address).
    bool ReturnsRef = false;
    std::optional<LValue> This; ///< Inlined member function's object.
    /// Type-erased cooperative groups (a thread_group parameter or local):
    /// the type of the group they were made from.
    std::map<const clang::VarDecl *, clang::QualType> GroupTypes;
    /// The body contains a goto: its control flow is not followed, so its
    /// accesses (and those of the calls it makes) are unknown.
    bool UsesGoto = false;
  };

  /// Does S, outside nested lambdas, contain a goto or an indirect goto?
  static bool containsGoto(const clang::Stmt *S);
  /// Is an access created now inside a function that uses goto?
  bool inGotoFunction() const;

  int slotFor(const clang::VarDecl *VD, size_t FrameIdx);
  void declare(const clang::VarDecl *VD, StmtList &Out);
  Value inlineCall(const clang::CallExpr *CE, const clang::FunctionDecl *Def,
                   StmtList &Out, LValue *RefResult);
  Value unknownCall(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                    StmtList &Out);
  std::optional<Value> minMax(const clang::CallExpr *CE,
                              const clang::FunctionDecl *FD, StmtList &Out);
  // cooperative_groups queries (coop_groups.cpp).
  std::optional<Value> cooperativeGroups(const clang::CallExpr *CE,
                                         const clang::FunctionDecl *FD,
                                         StmtList &Out);
  // Texture fetches and surface accesses (texture_calls.cpp).
  std::optional<Value> textureCall(const clang::CallExpr *CE,
                                   const clang::FunctionDecl *FD,
                                   StmtList &Out);
  // Shuffles and votes (warp_intrinsics.cpp).
  std::optional<Value> warpIntrinsic(const clang::CallExpr *CE,
                                     const clang::FunctionDecl *FD,
                                     StmtList &Out);
  /// For a group query returning dim3 (group_index(), ...), the built-in
  /// of its x member.
  std::optional<int> groupDim3(const clang::Expr *E) const;
  /// The type of the group Obj is: its own, or for a thread_group made from
  /// a thread_block or a tile, that one's (Frame::GroupTypes).
  clang::QualType groupType(const clang::Expr *Obj) const;
  /// Records the group type of VD (a cooperative group) made from E.
  void bindGroup(const clang::VarDecl *VD, const clang::Expr *E,
                 Frame &Into) const;
  void loop(const clang::Stmt *S, StmtList &Out);
  void switchStmt(const clang::SwitchStmt *S, StmtList &Out);
  void ifStmt(const clang::IfStmt *S, StmtList &Out);
  void returnStmt(const clang::ReturnStmt *S, StmtList &Out);

  Value binaryOp(const clang::BinaryOperator *BO, StmtList &Out);
  Value logicalOp(const clang::BinaryOperator *BO, StmtList &Out);
  Value assignOp(const clang::BinaryOperator *BO, StmtList &Out,
                 LValue *Target);
  Value incDec(const clang::UnaryOperator *UO, StmtList &Out, bool ValueUsed,
               LValue *Target);
  Value conditional(const clang::AbstractConditionalOperator *CO, StmtList &Out,
                    bool LoadBranches);
  Value castExpr(const clang::CastExpr *CE, StmtList &Out);
  Value unaryOp(const clang::UnaryOperator *UO, StmtList &Out);
  Value construct(const clang::CXXConstructExpr *CE, StmtList &Out);
  Value fallback(const clang::Expr *E, StmtList &Out, const std::string &What);
  std::optional<Value> fold(const clang::Expr *E) const;
  std::optional<Value> builtinVar(const clang::Expr *E) const;

  /// After the body: accesses whose address reads only slots that never
  /// hold a computable value get their UnknownReason too.
  void markNeverComputable();
  int addAccess(AccessKind Kind, const LValue &L, unsigned Size, ExprPtr Addr,
                StmtList &Out);
  void accessObject(AccessKind Kind, const LValue &L, StmtList &Out);
  Why loadedReason(const LValue &L) const;

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  Kernel &K;
  const std::map<const clang::VarDecl *, int> &SharedIdx;
  std::deque<Frame> Frames; ///< Stable references while calls nest.
  std::vector<PtrOrigin> SlotOrigin;
  std::set<std::string> SlotNames;
  std::set<std::string> WarningSet;
  std::set<const clang::ParmVarDecl *> ModifiedParams;
  /// What a 'break' leaves, innermost last: true for a switch that is not
  /// lowered to ifs (its breaks are dropped), false for a loop.
  std::vector<bool> BreakTargets;
  static constexpr unsigned MaxInlineDepth = 8;
  /// Inside the body of a call refused for depth: the index of its frame
  /// (0 outside). That body sits under an If with an unknown condition, so
  /// lanes that reach it make its accesses unknown; calls inside it are
  /// inlined only while they do not recurse.
  size_t RefusedFrom = 0;
};

} // namespace gmem

#endif // GMEM_ANALYZER_BODY_TRANSLATOR_H
