# CTest script: runs rlsim-kernels with every GPU hidden and checks exit code 3 and the message.
set(ENV{CUDA_VISIBLE_DEVICES} "")
execute_process(COMMAND ${KERNELS} --quick --out no-gpu-should-not-exist.json
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 3)
  message(FATAL_ERROR "expected exit code 3 without a GPU, got '${code}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "no CUDA device found")
  message(FATAL_ERROR "expected 'no CUDA device found' on stderr, got: ${err}")
endif()
if(EXISTS no-gpu-should-not-exist.json)
  message(FATAL_ERROR "wrote a measurements file without a GPU")
endif()
