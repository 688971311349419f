//===- device_info.cpp - Which GPU, driver and CUDA measured --------------===//
#include "device_info.h"

#include <dlfcn.h>
#include <fstream>
#include <regex>
#include <string>

namespace gmem {
namespace cupti {

/// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..." holds
/// the driver version; NVML is asked when /proc does not have it.
static std::string kernelDriverVersion() {
  std::ifstream In("/proc/driver/nvidia/version");
  std::string Line;
  static const std::regex Version("([0-9]+\\.[0-9]+(\\.[0-9]+)?)");
  if (std::getline(In, Line)) {
    size_t At = Line.find("Kernel Module");
    std::smatch M;
    std::string Tail = At == std::string::npos ? Line : Line.substr(At);
    if (std::regex_search(Tail, M, Version))
      return M[1].str();
  }
  void *Nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Nvml)
    return "";
  using InitFn = int (*)();
  using VersionFn = int (*)(char *, unsigned);
  auto Init = reinterpret_cast<InitFn>(dlsym(Nvml, "nvmlInit_v2"));
  auto Get =
      reinterpret_cast<VersionFn>(dlsym(Nvml, "nvmlSystemGetDriverVersion"));
  auto Shutdown = reinterpret_cast<InitFn>(dlsym(Nvml, "nvmlShutdown"));
  std::string Result;
  char Buf[96] = {0};
  if (Init && Get && Init() == 0) {
    if (Get(Buf, sizeof(Buf)) == 0)
      Result = Buf;
    if (Shutdown)
      Shutdown();
  }
  dlclose(Nvml);
  return Result;
}

void describeDevice(CUdevice Dev, Measurement &M) {
  char Name[256] = {0};
  if (cuDeviceGetName(Name, sizeof(Name), Dev) == CUDA_SUCCESS)
    M.Device = Name;
  int Major = 0, Minor = 0;
  cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       Dev);
  cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       Dev);
  M.ComputeCapability = std::to_string(Major) + "." + std::to_string(Minor);
  int Version = 0;
  if (cuDriverGetVersion(&Version) == CUDA_SUCCESS)
    M.CudaVersion = std::to_string(Version / 1000) + "." +
                    std::to_string((Version % 1000) / 10);
  M.DriverVersion = kernelDriverVersion();
}

} // namespace cupti
} // namespace gmem
