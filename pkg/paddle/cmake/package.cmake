# What other projects use to build against libpaddle: the pkg-config file
# and the CMake package (find_package(Paddle) -> Paddle::paddle).
include(CMakePackageConfigHelpers)

set(paddle_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Paddle)
configure_file(cmake/paddle.pc.in ${PROJECT_BINARY_DIR}/paddle.pc @ONLY)
configure_package_config_file(cmake/PaddleConfig.cmake.in
  ${PROJECT_BINARY_DIR}/PaddleConfig.cmake
  INSTALL_DESTINATION ${paddle_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/PaddleConfigVersion.cmake
  VERSION ${PADDLE_VERSION_NUMERIC} COMPATIBILITY SameMajorVersion)

install(FILES ${PROJECT_BINARY_DIR}/paddle.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_BINARY_DIR}/PaddleConfig.cmake
  ${PROJECT_BINARY_DIR}/PaddleConfigVersion.cmake
  DESTINATION ${paddle_cmake_dir})
install(EXPORT PaddleTargets NAMESPACE Paddle:: DESTINATION ${paddle_cmake_dir})
