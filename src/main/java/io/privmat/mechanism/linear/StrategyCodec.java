package io.privmat.mechanism.linear;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A versioned binary form of a {@link Strategy} (arrays and metadata, big-endian IEEE doubles) for a
 * strategy cache or a stored plan. Dense factors store A only; (AᵀA)⁻¹ is recomputed on first use
 * (Cholesky), so variances of a decoded strategy agree with the original's to rounding. The privacy
 * sensitivities depend on A only and are identical.
 */
public final class StrategyCodec {

    private static final int MAGIC = 0x504D4C53; // "PMLS"
    private static final int VERSION = 1;

    private StrategyCodec() {}

    public static byte[] encode(Strategy strategy) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            StrategyInfo info = strategy.info();
            out.writeUTF(info.workloadHash());
            out.writeUTF(info.method());
            out.writeUTF(info.parameters());
            out.writeDouble(info.objective());
            out.writeDouble(info.lowerBound());
            out.writeInt(info.iterations());
            out.writeBoolean(info.converged());
            if (strategy instanceof ProductStrategy p) {
                out.writeByte(1);
                out.writeUTF(p.kind());
                out.writeInt(p.factors().size());
                for (Factor f : p.factors()) {
                    if (f instanceof IdentityFactor i) {
                        out.writeByte(1);
                        out.writeInt(i.cols());
                    } else if (f instanceof TreeFactor t) {
                        out.writeByte(2);
                        out.writeInt(t.cols());
                    } else {
                        DenseFactor d = (DenseFactor) f;
                        out.writeByte(3);
                        out.writeInt(d.rows());
                        out.writeInt(d.cols());
                        writeDoubles(out, d.matrix());
                    }
                }
            } else {
                LowRankStrategy l = (LowRankStrategy) strategy;
                out.writeByte(2);
                out.writeInt(l.cells());
                out.writeInt(l.rank());
                out.writeInt(l.workloadRank());
                out.writeBoolean(l.fallback());
                out.writeDouble(l.residualFrobenius());
                out.writeDouble(l.traceBtB());
                if (!l.fallback()) {
                    writeDoubles(out, l.lView());
                    writeDoubles(out, l.mView());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @throws LinearQueryException INVALID for bytes that are not an encoded strategy of this version
     */
    public static Strategy decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            if (in.readInt() != MAGIC || in.readInt() != VERSION) {
                throw LinearQueryException.invalid("strategy", "not an encoded strategy of version " + VERSION);
            }
            StrategyInfo info = new StrategyInfo(in.readUTF(), in.readUTF(), in.readUTF(), in.readDouble(),
                    in.readDouble(), in.readInt(), in.readBoolean());
            int type = in.readByte();
            if (type == 1) {
                String kind = in.readUTF();
                int count = in.readInt();
                List<Factor> factors = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int f = in.readByte();
                    switch (f) {
                        case 1 -> factors.add(new IdentityFactor(in.readInt()));
                        case 2 -> factors.add(new TreeFactor(in.readInt()));
                        case 3 -> {
                            int rows = in.readInt();
                            int cols = in.readInt();
                            factors.add(new DenseFactor(rows, cols, readDoubles(in, (long) rows * cols)));
                        }
                        default -> throw LinearQueryException.invalid("strategy", "unknown factor type " + f);
                    }
                }
                return new ProductStrategy(kind, factors, info);
            }
            if (type == 2) {
                int n = in.readInt();
                int r = in.readInt();
                int rw = in.readInt();
                boolean fallback = in.readBoolean();
                double residual = in.readDouble();
                double trace = in.readDouble();
                double[] l = fallback ? new double[0] : readDoubles(in, (long) r * n);
                double[] m = fallback ? new double[0] : readDoubles(in, (long) n * r);
                return new LowRankStrategy(n, r, l, m, residual, trace, rw, fallback, info);
            }
            throw LinearQueryException.invalid("strategy", "unknown strategy type " + type);
        } catch (IOException e) {
            throw LinearQueryException.invalid("strategy", "truncated strategy encoding");
        }
    }

    private static void writeDoubles(DataOutputStream out, double[] values) throws IOException {
        out.writeInt(values.length);
        for (double v : values) {
            out.writeDouble(v);
        }
    }

    private static double[] readDoubles(DataInputStream in, long expected) throws IOException {
        int length = in.readInt();
        if (length != expected) {
            throw LinearQueryException.invalid("strategy", "an array of " + length + " values where " + expected
                    + " were expected");
        }
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = in.readDouble();
        }
        return values;
    }
}
