# The CUDA language for WITH_GPU=ON. libcudart is linked dynamically, so
# the library NEEDs libcudart.so.N and packages can depend on the runtime.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  # sm_75 code plus compute_75 PTX, which newer GPUs compile at load time.
  set(CMAKE_CUDA_ARCHITECTURES 75)
endif()
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

# The host part of .cu files is compiled by the host compiler: give it the
# C flags of the variant (e.g. -mno-avx), as the real Paddle does with
# -Xcompiler, so no-AVX builds stay free of AVX in their host code too.
separate_arguments(paddle_host_flags UNIX_COMMAND "${CMAKE_C_FLAGS}")
foreach(flag IN LISTS paddle_host_flags)
  string(APPEND CMAKE_CUDA_FLAGS " -Xcompiler=${flag}")
endforeach()

# nvcc names the host code it writes for the host compiler after its own
# process id in the temporary directory (/tmp/tmpxft_00002a3c_...), and
# that name reaches the debug information: two builds of the same source
# differ. -objtemp (--objdir-as-tempdir, newer nvcc) writes it beside the
# object, named after it, relative to the build tree.
include(CheckCompilerFlag)
check_compiler_flag(CUDA "-objtemp" PADDLE_NVCC_OBJTEMP)
if(PADDLE_NVCC_OBJTEMP)
  string(APPEND CMAKE_CUDA_FLAGS " -objtemp")
endif()
