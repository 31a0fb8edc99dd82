package io.privmat.privacy;

/** The dataset's accounting mode cannot charge a loss of this kind (e.g. a Gaussian under PURE). */
public final class IncompatibleLossException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final AccountingMode mode;
    private final String notion;

    public IncompatibleLossException(AccountingMode mode, PrivacyLoss loss, String reason) {
        super(mode + " accounting cannot charge a " + loss.notion() + " loss: " + reason);
        this.mode = mode;
        this.notion = loss.notion();
    }

    public AccountingMode mode() {
        return mode;
    }

    public String notion() {
        return notion;
    }
}
