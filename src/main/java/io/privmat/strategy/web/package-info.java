/** HTTP resource of a cached strategy: its status, progress and public facts. */
@NullMarked
package io.privmat.strategy.web;

import org.jspecify.annotations.NullMarked;
