/** HTTP adapter of releases (internal). */
@NullMarked
package io.privmat.release.web;

import org.jspecify.annotations.NullMarked;
