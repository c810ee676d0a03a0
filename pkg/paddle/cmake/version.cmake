# Sets PADDLE_VERSION (e.g. 0.11.0 or 0.11.0rc1) and PADDLE_VERSION_NUMERIC
# (0.11.0), the same way the real Paddle does: -DPADDLE_VERSION, else the
# PADDLE_VERSION environment variable, else the nearest vX.Y.Z[(a|b|rc)N]
# git tag of the source tree with the "v" removed, else 0.0.0.
set(paddle_version_re "^([0-9]+\\.[0-9]+\\.[0-9]+)((a|b|rc)[0-9]+)?$")

if(NOT PADDLE_VERSION AND DEFINED ENV{PADDLE_VERSION})
  set(PADDLE_VERSION "$ENV{PADDLE_VERSION}")
endif()
if(NOT PADDLE_VERSION)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(
      COMMAND ${GIT_EXECUTABLE} describe --tags --abbrev=0 --match "v[0-9]*"
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
      OUTPUT_VARIABLE paddle_tag OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET RESULT_VARIABLE paddle_git_rc)
    if(paddle_git_rc EQUAL 0 AND paddle_tag MATCHES "^v(.*)$")
      set(PADDLE_VERSION "${CMAKE_MATCH_1}")
    endif()
  endif()
endif()
if(NOT PADDLE_VERSION)
  set(PADDLE_VERSION "0.0.0")
endif()
if(NOT PADDLE_VERSION MATCHES "${paddle_version_re}")
  message(FATAL_ERROR "PADDLE_VERSION '${PADDLE_VERSION}' is not X.Y.Z "
                      "or X.Y.Z followed by aN, bN or rcN")
endif()
set(PADDLE_VERSION_NUMERIC "${CMAKE_MATCH_1}")
