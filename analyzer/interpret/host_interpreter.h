//===- host_interpreter.h - Run main() far enough to see its launches -----===//
//
// A small interpreter over Clang's AST of host code. It executes main() and
// the user functions it calls in program order, tracking integer, floating,
// pointer and dim3 locals, and reports every kernel launch it passes with
// the values of grid, block, dynamic shared size and arguments. main() runs
// as if started with a given command line (by default the program's name
// alone, argc == 1), so code that scans argv takes its defaults.
//
// What it cannot compute becomes Unknown with a reason. Where a condition is
// unknown both branches run and their variables join (host_value.h); a path
// that leaves (exit, return, break) under an unknown condition joins where
// it lands. A loop whose condition is unknown runs its body once and then
// forgets what the body changes. Loops that cannot launch a kernel and run
// too long are skipped the same way. Library calls are not interpreted: they
// leave tracked values alone, except that what they write through &var
// becomes Unknown and cudaMalloc*(&p, ...) gives p a fresh allocation.
//
// A pointer variable whose value is not known (cudaMalloc'd, malloc'd) is an
// allocation of its own, named after the variable; arithmetic moves its byte
// offset. An allocation that a helper makes and returns takes the name of
// the variable that receives it (float *in = dalloc(n) is "in"). A kernel
// pointer chosen under an unknown condition is the set of kernels it may
// be, and its launch is reported once for each.
//
// cudaGetDeviceProperties and cudaDeviceGetAttribute give the properties
// that the target architecture fixes (host_device.cpp); those that differ
// between boards of one architecture stay Unknown and say so.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_INTERPRETER_H
#define GMEM_ANALYZER_RECORD_INTERPRETER_H

#include "arch.h"
#include "host_value.h"
#include "model.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {

/// A launch as the interpreter saw it, before the command line's overrides.
struct HostLaunch {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::CUDAKernelCallExpr *Call = nullptr;
  HostValue Grid, Block, Smem; ///< Dim3, Dim3, Int (or Unknown).
  std::vector<ArgValue> Args;  ///< One per kernel parameter.
  SourceLoc Loc;               ///< The <<<.
};

struct HostInterpreterLimits {
  unsigned MaxLaunches = 10000;
  uint64_t MaxSteps = 5000000;     ///< Statements and calls in all.
  uint64_t QuietLoopSteps = 50000; ///< A loop that cannot launch a kernel.
  unsigned MaxCallDepth = 32;
  unsigned MaxRecursionDepth = 12; ///< Calls of one function on the stack.
};

class HostInterpreter {
public:
  HostInterpreter(clang::ASTContext &Ctx, HostInterpreterLimits Limits = {});

  /// Variables whose every written value is replaced by Value (--block).
  void overrideVariables(std::set<const clang::VarDecl *> Vars, Dim3 Value);

  /// The program's command line, argv[0] first: main() sees argc ==
  /// Argv.size() and these strings. Default: the program's name alone.
  void setCommandLine(std::vector<std::string> Argv);

  /// The GPU the program asks cudaGetDeviceProperties about (default
  /// sm_90, gmem-analyze's default --arch).
  void setArch(const ArchRules &A) { Arch = &A; }
  /// The board's number of SMs (--sm-count); unknown when not set.
  void setSmCount(unsigned N) { SmCount = N; }

  /// Runs Main; calls OnLaunch for each launch in execution order.
  void run(const clang::FunctionDecl *Main,
           const std::function<void(const HostLaunch &)> &OnLaunch);

  const std::vector<std::string> &warnings() const { return Warnings; }

  /// "file.cu:12", for reasons and messages.
  std::string where(clang::SourceLocation L) const;
  SourceLoc sourceLoc(clang::SourceLocation L) const;

private:
  struct SlotInfo {
    const clang::VarDecl *Var = nullptr;
    clang::QualType Ty;
    int FrameId = -1; ///< -1: global or static.
  };
  struct Allocation {
    const clang::VarDecl *Owner = nullptr; ///< Null: not yet named.
    int FrameId = -1;                      ///< Frame of Owner.
    std::string Text;                      ///< Name when Owner is null.
  };
  /// Variables' values on one path of execution.
  struct PathState {
    std::map<int, HostValue> Values;
    bool Dead = false;
    std::string Why; ///< Unknown condition this path was split off under.
    bool WhyFromInput = false;
  };
  struct JumpTarget {
    const clang::Stmt *S = nullptr;
    bool IsLoop = true;
    std::vector<PathState> Breaks, Continues;
    std::string Why; ///< The path's condition where the loop starts.
    bool WhyFromInput = false;
  };
  struct Frame {
    int Id = 0;
    const clang::FunctionDecl *FD = nullptr;
    std::map<const clang::VarDecl *, int> Vars;
    std::vector<PathState> Returns;
    std::vector<HostValue> ReturnValues;
    std::vector<JumpTarget> Targets;
  };
  /// Where an lvalue lives: a slot, or an element of a dim3/array slot.
  /// Slot -1: memory that is not tracked (its address was evaluated, with
  /// its side effects); reads give Unknown and writes are dropped.
  struct LRef {
    int Slot = -1;
    int Index = -1;
  };

  // Statements (host_exec.cpp).
  void exec(const clang::Stmt *S);
  void execCompound(const clang::CompoundStmt *CS);
  void execDecl(const clang::VarDecl *VD);
  void execIf(const clang::IfStmt *If);
  void execLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                const clang::Expr *Cond, const clang::Stmt *Inc,
                const clang::Stmt *Body, bool TestFirst);
  void execRangeFor(const clang::CXXForRangeStmt *RF);
  void execSwitch(const clang::SwitchStmt *SW);
  void execSwitchFrom(const clang::Stmt *Body, size_t Entry);
  void jump(bool IsBreak, const clang::Stmt *S);
  void unknownLoop(const clang::Stmt *Loop, const clang::Stmt *Body,
                   const clang::Expr *Cond, const clang::Stmt *Inc,
                   const HostValue &CondV);
  bool iterate(const clang::Stmt *Body, clang::SourceLocation L);
  std::optional<std::vector<HostValue>> rangeElements(const clang::Expr *Range,
                                                      clang::QualType &ElemTy);
  void havoc(const clang::Stmt *S, const std::string &Reason, bool FromInput);
  bool canLaunch(const clang::Stmt *S);
  bool canLaunch(const clang::FunctionDecl *FD);
  bool canLaunchLoop(const clang::Stmt *Loop);
  void collectAssigned(const clang::Stmt *S,
                       std::set<const clang::VarDecl *> &Out,
                       std::set<const clang::FunctionDecl *> &Seen);
  /// Joins the live states among States into the current one (Dead if
  /// none); the result continues under OuterWhy.
  void join(std::vector<PathState> States, const std::string &OuterWhy,
            bool OuterInput, clang::SourceLocation L);
  bool stopped() const { return State.Dead || Aborted || UnwindTo; }
  bool step(clang::SourceLocation L);

  // Expressions (host_eval.cpp).
  HostValue eval(const clang::Expr *E);
  HostValue evalCast(const clang::CastExpr *CE);
  HostValue evalUnary(const clang::UnaryOperator *UO);
  HostValue evalBinary(const clang::BinaryOperator *BO);
  HostValue evalArith(clang::BinaryOperatorKind Op, const HostValue &L,
                      const HostValue &R, clang::QualType ResTy,
                      clang::QualType OpndTy, const clang::Expr *E);
  HostValue evalConditional(const clang::Expr *Cond, const clang::Expr *T,
                            const clang::Expr *F, const clang::Expr *E);
  HostValue evalLogical(const clang::BinaryOperator *BO);
  HostValue evalCall(const clang::CallExpr *CE);
  HostValue evalKnownLibraryCall(const clang::FunctionDecl *FD,
                                 const clang::CallExpr *CE, bool &Handled);
  HostValue evalStringCall(const clang::FunctionDecl *FD,
                           const clang::CallExpr *CE, bool &Handled);
  HostValue callUser(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  HostValue opaqueCall(const clang::FunctionDecl *FD,
                       const clang::CallExpr *CE);
  HostValue evalConstruct(const clang::CXXConstructExpr *CE);
  HostValue evalInitList(const clang::InitListExpr *IL, clang::QualType T);
  HostValue evalDeclRef(const clang::DeclRefExpr *DRE);
  HostValue evalMember(const clang::MemberExpr *ME);
  HostValue evalSubscript(const clang::ArraySubscriptExpr *AS);
  HostValue evalByClang(const clang::Expr *E);
  HostValue launch(const clang::CUDAKernelCallExpr *KC);
  ArgValue argValue(const HostValue &V, clang::QualType ParamTy,
                    const clang::Expr *Arg);
  std::optional<LRef> lvalue(const clang::Expr *E);
  HostValue read(const LRef &R);
  void write(const LRef &R, HostValue V);
  HostValue convert(const HostValue &V, clang::QualType From,
                    clang::QualType To, const clang::Expr *E);
  HostValue zeroOf(clang::QualType T);
  HostValue addToPointer(const HostValue &P, const HostValue &N,
                         clang::QualType PtrTy, bool Subtract,
                         const clang::Expr *E);
  std::optional<bool> truth(const HostValue &V);

  // The device (host_device.cpp).
  HostValue evalDeviceQuery(const clang::FunctionDecl *FD,
                            const clang::CallExpr *CE, bool &Handled);
  std::optional<HostValue> devicePropRead(const clang::Expr *E);
  const clang::VarDecl *devicePropVar(const clang::Expr *E) const;
  HostValue deviceProperty(llvm::StringRef Field, int Index, clang::QualType T,
                           const clang::Expr *E);
  void bindDeviceProp(const clang::ParmVarDecl *P, const clang::Expr *Arg);
  void warnUndefined(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  /// table[i].field of a local array of structs that its initializer list
  /// fills and nothing writes (helper_cuda.h's table of cores per SM).
  std::optional<HostValue> tableRead(const clang::MemberExpr *ME);

  // Slots, allocations and names.
  int newSlot(const clang::VarDecl *VD, clang::QualType Ty);
  std::optional<int> slotOf(const clang::VarDecl *VD);
  int newAllocation(int Slot);
  int arrayAllocation(const clang::VarDecl *VD);
  std::string allocationName(int Alloc);
  void initGlobals();
  std::optional<IntType> intTypeOf(clang::QualType T) const;
  std::optional<IntType> computeIntType(clang::QualType T) const;
  bool isDim3(clang::QualType T) const;
  bool isTracked(clang::QualType T) const;
  bool isUserFunction(const clang::FunctionDecl *FD) const;
  std::string text(const clang::Expr *E) const;
  void warn(clang::SourceLocation L, const std::string &Msg);

  clang::ASTContext &Ctx;
  HostInterpreterLimits Limits;
  std::function<void(const HostLaunch &)> OnLaunch;
  const clang::FunctionDecl *Main = nullptr;
  const ArchRules *Arch = nullptr;
  std::optional<unsigned> SmCount;
  /// cudaDeviceProp variables cudaGetDeviceProperties filled, and parameters
  /// bound to them.
  std::set<const clang::VarDecl *> DeviceProps;
  std::set<const clang::FunctionDecl *> UndefinedWarned;
  /// Local tables of structs: 1 read only (tableRead), 2 written.
  std::map<const clang::VarDecl *, int> ReadOnlyTables;

  PathState State;
  std::vector<Frame> Frames;
  std::vector<SlotInfo> Slots;
  std::map<const clang::VarDecl *, int> Globals;
  std::vector<Allocation> Allocations;
  std::map<const clang::VarDecl *, int> ArrayAllocations;
  std::map<const clang::VarDecl *, std::string> AllocationNames;
  std::set<std::string> UsedAllocationNames;
  std::set<const clang::VarDecl *> OverriddenVars;
  Dim3 OverrideValue;
  std::vector<std::string> CommandLine = {"program"};
  std::map<const clang::FunctionDecl *, bool> LaunchMemo;
  std::map<const clang::Stmt *, bool> StmtLaunchMemo;
  std::set<const clang::Stmt *> LongQuietLoops;
  std::vector<std::string> Warnings;
  mutable std::map<const clang::Type *, std::optional<IntType>> IntTypes;
  std::set<std::string> WarnedOnce;
  int NextFrameId = 0;
  unsigned Launches = 0;
  uint64_t Steps = 0;
  bool Aborted = false;
  /// Set while a quiet loop that ran too long unwinds to its start.
  const clang::Stmt *UnwindTo = nullptr;
  const clang::Stmt *QuietLoop = nullptr;
  uint64_t QuietLoopStart = 0;
};

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_INTERPRETER_H
