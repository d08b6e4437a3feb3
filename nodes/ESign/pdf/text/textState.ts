import type { PdfFont } from '../fonts/fonts';
import type { Matrix } from '../matrix';

/** The graphics state the text interpreter keeps (ISO 32000-1, 8.4 and 9.3): no colours, nothing drawn. */
export interface GraphicsState {
	ctm: Matrix;
	font: PdfFont | undefined;
	/** the name the font was selected by (Tf), in the resources of the content that selected it */
	fontName: string | undefined;
	size: number;
	charSpacing: number;
	wordSpacing: number;
	scale: number;
	leading: number;
	rise: number;
}

/** The text state operators of one number (9.3.1): Tc, Tw, Tz, TL, Ts. */
export function setTextState(gs: GraphicsState, op: 'Tc' | 'Tw' | 'Tz' | 'TL' | 'Ts', value: number): void {
	switch (op) {
		case 'Tc':
			gs.charSpacing = value;
			break;
		case 'Tw':
			gs.wordSpacing = value;
			break;
		case 'Tz':
			gs.scale = value / 100;
			break;
		case 'TL':
			gs.leading = value;
			break;
		case 'Ts':
			gs.rise = value;
			break;
	}
}
