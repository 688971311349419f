//===- executed_json.h - Executed counts across the recording boundary
//------===//
//
// The recording runtime executes and prices each launch in the program's
// process; gmem-analyze reports it. Two texts cross between them:
//  - the counts of a launch (an "exec" event of the log): per access of the
//    executed kernel, its AccessStats and first misaligned lane, and how
//    the execution ended;
//  - what ptxas made of each kernel's accesses (reconcile.h), one line per
//    access whose CompiledForm is not as written, which gmem-analyze works
//    out from the build's SASS before the run (GMEM_RECORD_COMPILED).
// Both sides number the accesses alike (executedKernel of the same PTX).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_EXECUTED_JSON_H
#define GMEM_EXECUTOR_EXECUTED_JSON_H

#include "executed.h"
#include "expected.h"

#include <string>

namespace gmem {

/// The fields of an "exec" event (without braces): "finished", "error",
/// "seconds", instruction counts, "stats" and "misaligned".
std::string countsJson(const ExecutedCounts &C, double Seconds);

/// Reads what countsJson wrote (the whole event, as text).
Expected<ExecutedCounts> countsFromJson(const std::string &Event);

/// The lines of GMEM_RECORD_COMPILED for EK: "KERNEL ID STATE WIDTH LEADER
/// LOOP ONELANE REDUCTION NPARTS PARTS... GUARDED SITEPARTS SUNKANCHOR"
/// for every access that is not as written or was sunk.
std::string compiledLines(const ExecutedKernel &EK);
/// Applies one such line to EK (a line of another kernel is ignored).
void applyCompiledLine(ExecutedKernel &EK, const std::string &Line);

} // namespace gmem

#endif // GMEM_EXECUTOR_EXECUTED_JSON_H
