//===- ptx_parser.h - Read a .ptx file into ptx::Module ---------------------===//
#ifndef GMEM_EXECUTOR_PTX_PARSER_H
#define GMEM_EXECUTOR_PTX_PARSER_H

#include "expected.h"
#include "ptx.h"
#include <string>
#include <string_view>

namespace gmem::ptx {

/// Parses PTX as nvcc emits it (ISA 6 to 9). A construct the parser does
/// not know is a Failure naming Name, the line and the text; instructions
/// are not checked here (any opcode parses; decode.cpp says which run).
Expected<Module> parseModule(std::string_view Text, const std::string &Name);

} // namespace gmem::ptx

#endif // GMEM_EXECUTOR_PTX_PARSER_H
