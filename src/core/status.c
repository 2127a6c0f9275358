/* status.c — names and messages of sqz's status codes and of OpenCL's error codes. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h> /* OpenCL statuses pass through sqz calls: their names are part of the API */

#include "core/sqz_internal.h"

#define SQZ_CL_ERROR_MAP(X)                                                             \
  X(CL_DEVICE_NOT_FOUND, "no OpenCL device of the requested type")                      \
  X(CL_DEVICE_NOT_AVAILABLE, "OpenCL device not available")                             \
  X(CL_COMPILER_NOT_AVAILABLE, "OpenCL compiler not available")                         \
  X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "device memory allocation failed")                \
  X(CL_OUT_OF_RESOURCES, "device out of resources")                                     \
  X(CL_OUT_OF_HOST_MEMORY, "host out of memory in the OpenCL runtime")                  \
  X(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling information not available")             \
  X(CL_MEM_COPY_OVERLAP, "overlapping copy")                                            \
  X(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch")                                  \
  X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")                        \
  X(CL_BUILD_PROGRAM_FAILURE, "program build failure")                                  \
  X(CL_MAP_FAILURE, "map failure")                                                      \
  X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset")                    \
  X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event in the wait list failed")  \
  X(CL_COMPILE_PROGRAM_FAILURE, "compile program failure")                              \
  X(CL_LINKER_NOT_AVAILABLE, "linker not available")                                    \
  X(CL_LINK_PROGRAM_FAILURE, "link program failure")                                    \
  X(CL_DEVICE_PARTITION_FAILED, "device partition failed")                              \
  X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info not available")             \
  X(CL_INVALID_VALUE, "invalid value")                                                  \
  X(CL_INVALID_DEVICE_TYPE, "invalid device type")                                      \
  X(CL_INVALID_PLATFORM, "invalid platform")                                            \
  X(CL_INVALID_DEVICE, "invalid device")                                                \
  X(CL_INVALID_CONTEXT, "invalid context")                                              \
  X(CL_INVALID_QUEUE_PROPERTIES, "invalid queue properties")                            \
  X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                                  \
  X(CL_INVALID_HOST_PTR, "invalid host pointer")                                        \
  X(CL_INVALID_MEM_OBJECT, "invalid memory object")                                     \
  X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format descriptor")              \
  X(CL_INVALID_IMAGE_SIZE, "invalid image size")                                        \
  X(CL_INVALID_SAMPLER, "invalid sampler")                                              \
  X(CL_INVALID_BINARY, "invalid program binary")                                        \
  X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                                  \
  X(CL_INVALID_PROGRAM, "invalid program")                                              \
  X(CL_INVALID_PROGRAM_EXECUTABLE, "invalid program executable")                        \
  X(CL_INVALID_KERNEL_NAME, "invalid kernel name")                                      \
  X(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition")                          \
  X(CL_INVALID_KERNEL, "invalid kernel")                                                \
  X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                              \
  X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                              \
  X(CL_INVALID_ARG_SIZE, "invalid kernel argument size")                                \
  X(CL_INVALID_KERNEL_ARGS, "kernel arguments not set")                                 \
  X(CL_INVALID_WORK_DIMENSION, "invalid work dimension")                                \
  X(CL_INVALID_WORK_GROUP_SIZE, "invalid work-group size")                              \
  X(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size")                                \
  X(CL_INVALID_GLOBAL_OFFSET, "invalid global offset")                                  \
  X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                              \
  X(CL_INVALID_EVENT, "invalid event")                                                  \
  X(CL_INVALID_OPERATION, "invalid operation")                                          \
  X(CL_INVALID_GL_OBJECT, "invalid GL object")                                          \
  X(CL_INVALID_BUFFER_SIZE, "invalid buffer size")                                      \
  X(CL_INVALID_MIP_LEVEL, "invalid mip level")                                          \
  X(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size")                            \
  X(CL_INVALID_PROPERTY, "invalid property")                                            \
  X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                            \
  X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                            \
  X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                                \
  X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")

const char *sqz_status_name(int status) {
  switch (status) {
#define SQZ_NAME_(name, code, msg) case code: return #name;
    SQZ_STATUS_MAP(SQZ_NAME_)
#undef SQZ_NAME_
#define SQZ_CL_NAME_(name, msg) case name: return #name;
    SQZ_CL_ERROR_MAP(SQZ_CL_NAME_)
#undef SQZ_CL_NAME_
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return "SQZ_UNKNOWN_STATUS";
  }
}

const char *sqz_status_message(int status) {
  switch (status) {
#define SQZ_MSG_(name, code, msg) case code: return msg;
    SQZ_STATUS_MAP(SQZ_MSG_)
#undef SQZ_MSG_
#define SQZ_CL_MSG_(name, msg) case name: return "OpenCL: " msg;
    SQZ_CL_ERROR_MAP(SQZ_CL_MSG_)
#undef SQZ_CL_MSG_
  case -1001: return "OpenCL: no platform found by the ICD loader";
  default: return "unknown status";
  }
}

unsigned sqz_version_number(void) { return SQZ_VERSION_NUMBER; }
const char *sqz_version_string(void) { return SQZ_VERSION_STRING; }
